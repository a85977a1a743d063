/* The header compiles on its own as strict C99. */
#include "mcp_resources.h"

int mcpr_header_check_c99(void) { return (int)MCPR_OK + (int)sizeof(mcpr_str); }
