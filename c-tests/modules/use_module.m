/* Objective-C: `@import MCPResources;` through include/module.modulemap. */
@import MCPResources;

const char *mcpr_objc_module_check(void);

const char *mcpr_objc_module_check(void) {
    return mcpr_status_name(MCPR_POLICY);
}
