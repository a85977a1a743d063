// The header compiles on its own as C++11 (extern "C" via cpp_compat).
#include "mcp_resources.h"

int mcpr_header_check_cxx() { return static_cast<int>(MCPR_OK) + static_cast<int>(sizeof(mcpr_str)); }
