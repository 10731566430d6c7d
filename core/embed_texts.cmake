# Turns resources/strategies/<id>.txt into a C++ table, so the core stays free of Qt's
# resource system and the teaching texts stay in resources/, editable as plain text.
# Usage: cmake -DOUT=file.cpp -DFILES="a.txt|b.txt" -P embed_texts.cmake
string(REPLACE "|" ";" FILES "${FILES}")
set(body "// Generated from resources/strategies/*.txt by core/embed_texts.cmake\n")
string(APPEND body "#include <string_view>\n#include <utility>\nnamespace readscope::texts {\n")
string(APPEND body "extern const std::pair<std::string_view, std::string_view> kExplanations[];\n")
string(APPEND body "const std::pair<std::string_view, std::string_view> kExplanations[] = {\n")
set(count 0)
foreach(file IN LISTS FILES)
    get_filename_component(id "${file}" NAME_WE)
    file(READ "${file}" text)
    string(APPEND body "    {\"${id}\", R\"RSTXT(${text})RSTXT\"},\n")
    math(EXPR count "${count} + 1")
endforeach()
string(APPEND body "};\nextern const int kExplanationCount;\nconst int kExplanationCount = ${count};\n}\n")
file(WRITE "${OUT}.tmp" "${body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
