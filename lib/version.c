/* The library's version, for programs that link a different clscan than they compiled with. */
#include "error.h"

CLSCAN_API const char *clscan_version_string(void)
{
    return CLSCAN_VERSION_STRING;
}
