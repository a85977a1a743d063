/* The C API of mcp-resources for Swift: the installed header, found on the
 * include path that pkg-config gives (mcp_resources.pc or
 * mcp_resources_swiftpm_static.pc). */
#include <mcp_resources.h>
