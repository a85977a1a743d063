// The header compiles on its own as C++11 (extern "C" via cpp_compat), with
// -pedantic -Wall -Wextra -Werror and a few stricter warnings.
#include "mcp_resources.h"

int mcpr_header_check_cxx();
int mcpr_header_check_cxx() { return static_cast<int>(MCPR_OK) + static_cast<int>(sizeof(mcpr_str)); }
