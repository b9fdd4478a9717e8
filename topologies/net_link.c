/*
 * net_link.c -- link occupancy and per-link statistics (see net_link.h).
 */
#include "net_link.h"

void net_link_print(const struct net_link *l, const char *name, sim_time_t elapsed, FILE *f)
{
    if (!l->messages)
        return;
    double util = elapsed ? 100.0 * (double)l->busy_ps / (double)elapsed : 0.0;
    fprintf(f, "%-28s messages %10llu  bytes %12llu  util %6.2f%%  queue %12.3f ns\n", name,
            (unsigned long long)l->messages, (unsigned long long)l->bytes, util,
            (double)l->queue_ps / SIM_PS_PER_NS);
}
