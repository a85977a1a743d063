/* Compiled with clang -fmodules: the header is imported through
 * include/module.modulemap (module MCPResources) rather than textually
 * included, and its declarations are usable. Build-only check (nothing to
 * run): a C file whose #include is turned into a module import. */
#include <mcp_resources.h>

const char *mcpr_module_check(void);

const char *mcpr_module_check(void) {
    mcpr_str s = {"x", 1};
    (void)s;
    return mcpr_status_name(MCPR_OK);
}
