/* The header compiles on its own as strict C99 (-std=c99 -pedantic -Wall
 * -Wextra -Werror and a few stricter warnings, see CMakeLists.txt). */
#include "mcp_resources.h"

int mcpr_header_check_c99(void);
int mcpr_header_check_c99(void) { return (int)MCPR_OK + (int)sizeof(mcpr_str); }
