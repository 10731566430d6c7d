// The two common C++ whole-file idioms on each file named, for tst_runtime_traces (under
// strace): `cpp_read iterator FILE...` (std::string from istreambuf_iterator) or
// `cpp_read seek FILE...` (open at the end, tellg, seekg(0), read into a vector).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3)
        return 2;
    const bool iterator = std::strcmp(argv[1], "iterator") == 0;
    std::size_t total = 0;
    for (int i = 2; i < argc; ++i) {
        if (iterator) {
            std::ifstream in(argv[i], std::ios::binary);
            const std::string s((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
            total += s.size();
        } else {
            std::ifstream in(argv[i], std::ios::binary | std::ios::ate);
            const std::streamsize n = in.tellg();
            in.seekg(0, std::ios::beg);
            std::vector<char> v(static_cast<std::size_t>(n));
            in.read(v.data(), n);
            total += v.size();
        }
    }
    std::printf("%zu\n", total);
}
