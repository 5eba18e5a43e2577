/* clscan_cache_clear: what the library keeps between calls, dropped on request. */
#include "host.h"
#include "program.h"

CLSCAN_API void clscan_cache_clear(void)
{
    clscan_program_cache_clear();
    clscan_host_clear();
}
