/* clscan_host's default device (host.c). */
#ifndef CLSCAN_HOST_H
#define CLSCAN_HOST_H

#include "error.h"

/* Drops the default context, queue and plans of clscan_host (clscan_cache_clear). */
void clscan_host_clear(void);

#endif
