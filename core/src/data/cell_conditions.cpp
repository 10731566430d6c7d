// A cell's conditions as values: what data decides about them (their words are the
// documents': condition_words.h).
#include "readscope/cell_conditions.h"

namespace readscope {

bool worthWarning(const CellCondition& condition) {
    return !std::holds_alternative<ResidencyUnverified>(condition.what);
}

} // namespace readscope
