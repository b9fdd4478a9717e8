/*
 * sweep_mpi.c -- the MPI transport of `mpirun -n N ccsim sweep` (sweep.h):
 * rank 0 owns the CSV; the other ranks send it one message per finished
 * point (its index and row) and a last one with their counters. Without
 * CCSIM_MPI (CMake found no MPI) every function is a stub and
 * sweep_mpi_built() is false.
 */
#include "sweep.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_ROW = 1, TAG_DONE = 2 };

bool sweep_mpi_launched(void)
{
    const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < SIM_COUNT_OF(vars); i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

#ifdef CCSIM_MPI
#include <mpi.h>

bool sweep_mpi_built(void)
{
    return true;
}

void sweep_mpi_init(struct sweep_mpi *m)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    m->on = true;
}

void sweep_mpi_bcast(void *buf, size_t len)
{
    MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void sweep_mpi_send_row(size_t point, const char *row, size_t len)
{
    char buf[SWEEP_ROW_MAX + sizeof(uint64_t)];
    uint64_t p = point;
    memcpy(buf, &p, sizeof p);
    memcpy(buf + sizeof p, row, len);
    MPI_Send(buf, (int)(sizeof p + len), MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
}

void sweep_mpi_send_done(const uint64_t counts[SWEEP_MPI_COUNTS])
{
    MPI_Send(counts, SWEEP_MPI_COUNTS, MPI_UINT64_T, 0, TAG_DONE, MPI_COMM_WORLD);
}

int sweep_mpi_poll(char *row, size_t *len, size_t *point, uint64_t counts[SWEEP_MPI_COUNTS])
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return 0;
    if (st.MPI_TAG == TAG_DONE) {
        MPI_Recv(counts, SWEEP_MPI_COUNTS, MPI_UINT64_T, st.MPI_SOURCE, TAG_DONE, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        return 2;
    }
    char buf[SWEEP_ROW_MAX + sizeof(uint64_t)];
    int n = 0;
    MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, st.MPI_SOURCE, TAG_ROW, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    uint64_t p;
    memcpy(&p, buf, sizeof p);
    *point = (size_t)p;
    *len = (size_t)n - sizeof p;
    memcpy(row, buf + sizeof p, *len);
    row[*len] = '\0';
    return 1;
}

int sweep_mpi_finish(const struct sweep_mpi *m, int status)
{
    if (!m->on)
        return status;
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}

#else /* no MPI: stubs, never called with on == true */

bool sweep_mpi_built(void)
{
    return false;
}

void sweep_mpi_init(struct sweep_mpi *m)
{
    m->rank = 0;
    m->size = 1;
    m->on = false;
}

void sweep_mpi_bcast(void *buf, size_t len)
{
    (void)buf;
    (void)len;
}

void sweep_mpi_send_row(size_t point, const char *row, size_t len)
{
    (void)point;
    (void)row;
    (void)len;
}

void sweep_mpi_send_done(const uint64_t counts[SWEEP_MPI_COUNTS])
{
    (void)counts;
}

int sweep_mpi_poll(char *row, size_t *len, size_t *point, uint64_t counts[SWEEP_MPI_COUNTS])
{
    (void)row;
    (void)len;
    (void)point;
    (void)counts;
    return 0;
}

int sweep_mpi_finish(const struct sweep_mpi *m, int status)
{
    (void)m;
    return status;
}

#endif
