#include "mcp_resources.hpp"
int mcpr_hpp_check();
int mcpr_hpp_check() { return static_cast<int>(sizeof(mcpr::Error)); }
