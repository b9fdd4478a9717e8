/*
 * gols.c -- GOLS: the Xeon Phi KNC's tag directories (seed 000 Sec 2.1.2).
 *
 * Reading: cores run MESI; a distributed tag directory (chosen by a hash of
 * the address) keeps a global state per line: GI (no copy), GS (clean
 * sharers), GE/GM (one owner in E or M) and GOLS (Globally Owned, Locally
 * Shared). A modified line read by another core becomes Shared in both
 * caches while the directory marks it GOLS: it is dirty but not written to
 * memory. Reads of a GOLS line are answered by one of the sharers (memory is
 * stale); a write invalidates the others, whose acks the writer collects
 * itself while a sharer sends it the line (or the directory grants the
 * writer its own copy). The write-back happens when the
 * last copy leaves: a sharer's eviction carries the line, and the directory
 * writes it to memory if it was the last one. Reads of a GOLS line do not
 * wait for each other: the directory makes each reader a sharer at once and
 * forwards it to one supplier, counting the readers' unblocks (GG_N); only
 * writes and evictions wait for the line to be quiet.
 */
#include "cc_internal.h"

static const struct cc_row gols_cache[] = {
    /* the core's requests */
    CC_ROW(CC_S(I), CC_E(Load), CS_IS_D, CA(send_gets), CA(stall)),
    CC_ROW(CC_S(I), CC_E(Store), CS_IM_D, CA(send_getx), CA(stall)),
    CC_ROW(CC_S(S) | CC_S(E) | CC_S(M) | CC_S(SM_D) | CC_S(SM_A), CC_E(Load), CC_SAME,
           CA(perform_request)),
    CC_ROW(CC_S(S), CC_E(Store), CS_SM_D, CA(send_upgrade), CA(stall)),
    CC_ROW(CC_S(E), CC_E(Store), CS_M, CA(perform_request)),
    CC_ROW(CC_S(M), CC_E(Store), CC_SAME, CA(perform_request)),
    CC_ROW(CC_S(IS_D) | CC_S(IM_D) | CC_S(IM_A) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(II_A),
           CC_E(Load) | CC_E(Store), CC_SAME, CA(stall)),
    CC_ROW(CC_S(SM_D) | CC_S(SM_A), CC_E(Store), CC_SAME, CA(stall)),
    /* replacement: a sharer's eviction carries the line (it may be the last copy) */
    CC_ROW(CC_S(S), CC_E(Replace), CS_SI_A, CA(send_puts)),
    CC_ROW(CC_S(E), CC_E(Replace), CS_EI_A, CA(send_putx)),
    CC_ROW(CC_S(M), CC_E(Replace), CS_MI_A, CA(send_putx)),
    /* data and grants */
    CC_ROW(CC_S(IS_D), CC_E(Data_S), CS_S, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IS_D), CC_E(Data_E), CS_E, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IM_D), CC_E(Data_M), CS_M, CA(write_data), CA(clear_acks), CA(send_unblock)),
    /* a write of a shared line: the invalidated sharers ack the writer; the
     * supplier's data (or, to a sharer, the grant) says how many to await */
    CC_ROW(CC_S(IM_D), CC_E(Data_A), CS_IM_A, CA(write_data), CA(await_acks)),
    CC_ROW(CC_S(IM_D) | CC_S(IM_A) | CC_S(SM_D) | CC_S(SM_A), CC_E(Inv_Ack), CC_SAME,
           CA(count_ack)),
    CC_ROW(CC_S(IM_A) | CC_S(SM_A), CC_E(Last_Ack), CS_M, CA(clear_acks), CA(send_unblock)),
    CC_ROW(CC_S(SM_D), CC_E(Grant), CS_M, CA(clear_acks), CA(send_unblock)),
    CC_ROW(CC_S(SM_D), CC_E(Grant_A), CS_SM_A, CA(await_acks)),
    /* the tag directory's requests */
    CC_ROW(CC_S(S), CC_E(Inv), CS_I, CA(send_inv_ack)),
    CC_ROW(CC_S(SM_D), CC_E(Inv), CS_IM_D, CA(send_inv_ack)),
    CC_ROW(CC_S(SI_A), CC_E(Inv), CS_II_A, CA(send_inv_ack)),
    CC_ROW(CC_S(S), CC_E(Inv_R), CS_I, CA(send_inv_ack_to_req)),
    CC_ROW(CC_S(SM_D), CC_E(Inv_R), CS_IM_D, CA(send_inv_ack_to_req)),
    CC_ROW(CC_S(SI_A), CC_E(Inv_R), CS_II_A, CA(send_inv_ack_to_req)),
    CC_ROW(CC_S(E), CC_E(Fwd_GetS), CS_S, CA(send_data_s_to_req), CA(send_fwd_ack)),
    CC_ROW(CC_S(M), CC_E(Fwd_GetS), CS_S, CA(send_data_s_to_req), CA(send_fwd_ack_dirty)),
    CC_ROW(CC_S(S) | CC_S(SM_D) | CC_S(SI_A), CC_E(Fwd_GetS), CC_SAME, CA(send_data_s_to_req),
           CA(send_fwd_ack)),
    CC_ROW(CC_S(E) | CC_S(M) | CC_S(S), CC_E(Fwd_GetX), CS_I, CA(send_data_m_to_req)),
    CC_ROW(CC_S(SM_D), CC_E(Fwd_GetX), CS_IM_D, CA(send_data_m_to_req)),
    CC_ROW(CC_S(SI_A), CC_E(Fwd_GetX), CS_II_A, CA(send_data_m_to_req)),
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetS), CS_II_A, CA(send_data_s_to_req),
           CA(send_fwd_ack_data)),
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetX), CS_II_A, CA(send_data_m_to_req)),
    CC_ROW0(CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(II_A), CC_E(Put_Ack), CS_I),
    /* a broadcast probe: whatever the state, answer it */
    CC_ROW(CC_S(I) | CC_S(S) | CC_S(E) | CC_S(M) | CC_S(IS_D) | CC_S(IM_D) | CC_S(IM_A) |
               CC_S(SM_D) | CC_S(SM_A) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(II_A),
           CC_E(Probe), CC_SAME, CA(send_probe_ack)),
};

static const struct cc_row gols_home[] = {
    /* reads */
    CC_ROW(CC_HS(I), CC_HE(GetS), HS_IE_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(IE_M), CC_HE(Done), HS_B_EM, HA(send_data_e), HA(await_unblock)),
    /* reads of an uncached line (GI) while memory is read do not wait: the
     * directory sends each to memory, which answers the reader, so n readers
     * of a line in memory queue at its bank (memory.bank_busy_ns) and the
     * first one gets the line shared. A model choice, not documented KNC
     * behaviour: Chrysos ("if not found on chip, the TD sends the request to
     * the memory controller") speaks of a line no L2 holds, not of one whose
     * fill is in flight; joining gives Table 2's I-row slope, waiting for the
     * fill its intercept (README, "Simulated vs. the papers"). With
     * memory.fill_conflict_ns (the KNC's) memory refuses a joined read while
     * the fill is under way and it backs off at random (runtime.c
     * supply_read): Table 2's a/n term */
    CC_ROW(CC_HS(IE_M), CC_HE(GetS), HS_IS_M, HA(share_read_memory)),
    CC_ROW(CC_HS(IS_M), CC_HE(GetS), CC_SAME, HA(share_read_memory)),
    CC_ROW(CC_HS(IS_M), CC_HE(Mem_Data), CC_SAME, HA(send_data_s), HA(await_unblock),
           HA(count_answer)),
    CC_ROW(CC_HS(IS_M), CC_HE(Done), HS_S, HA(add_sharer)),
    /* a clean shared line (GS) is supplied by a sharer, as a GOLS line is:
     * on a miss the tag directory forwards the request to a core whose L2
     * holds the line and goes to memory only when no core does (G. Chrysos,
     * "Intel Xeon Phi coprocessor (codename Knights Corner)", Hot Chips 24,
     * 2012: seed 000 ref [5]); reads pipeline at the directory, and the cost
     * each added reader pays is the supplier's handling of one forwarded
     * request of the line after another (core.fwd_busy_cycles) */
    CC_ROW(CC_HS(S), CC_HE(GetS), HS_SS_N, HA(start_tx), HA(probe_others), HA(share_read)),
    CC_ROW0(CC_HS(SS_N), CC_HE(Done), HS_S),
    CC_ROW(CC_HS(B_S), CC_HE(Done), HS_S, HA(add_sharer)),
    CC_ROW(CC_HS(EM), CC_HE(GetS), HS_MS_F, HA(start_tx), HA(probe_others), HA(fwd_gets_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack_Data), CC_SAME, HA(take_fwd_data), HA(note_gone),
           HA(count_answer)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack_Dirty), HS_MG_F, HA(count_answer)),
    CC_ROW(CC_HS(MS_F), CC_HE(Done), HS_S, HA(add_owner_as_sharer), HA(add_sharer)),
    CC_ROW(CC_HS(MG_F), CC_HE(Done), HS_GOLS, HA(add_owner_as_sharer), HA(add_sharer)),
    /* reads of a GOLS line pipeline at the tag directory: each goes to the
     * same supplier while earlier ones are under way (seed 000 Table 2: a
     * reader of a contended line costs far less than a transfer) */
    CC_ROW(CC_HS(GOLS), CC_HE(GetS), HS_GG_N, HA(start_tx), HA(probe_others), HA(share_read)),
    CC_ROW(CC_HS(GG_N) | CC_HS(SS_N), CC_HE(GetS), CC_SAME, HA(share_read)),
    CC_ROW(CC_HS(GG_N) | CC_HS(SS_N), CC_HE(Fwd_Ack), CC_SAME,
           HA(count_answer)), /* the supplier keeps it */
    CC_ROW0(CC_HS(GG_N), CC_HE(Done), HS_GOLS),
    /* writes */
    CC_ROW(CC_HS(I), CC_HE(GetX), HS_IM_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(IM_M), CC_HE(Done), HS_B_EM, HA(send_data_m), HA(await_unblock)),
    /* a write of a shared line, clean (GS) or dirty (GOLS): the other
     * sharers are invalidated and ack the writer, not the directory, while a
     * sharer sends the writer the line (the directory goes to memory only
     * when no core holds it, as for reads) or, if the writer holds a copy,
     * the directory grants it; so the write costs one transfer (seed 000
     * Sec 2.3: on the Xeon Phi an RFO of a shared line "costs the same [as
     * R_R] since it is arbitrated by the DTD"); the directory awaits the
     * writer's unblock */
    CC_ROW(CC_HS(S) | CC_HS(GOLS), CC_HE(GetX), HS_MM_U, HA(start_tx), HA(probe_others),
           HA(pick_supplier), HA(inv_sharers_ack_requester), HA(fwd_getx_to_supplier),
           HA(await_unblock)),
    CC_ROW(CC_HS(S) | CC_HS(GOLS), CC_HE(Upgrade), HS_MM_U, HA(start_tx), HA(probe_others),
           HA(inv_sharers_ack_requester), HA(send_grant), HA(await_unblock)),
    CC_ROW(CC_HS(EM), CC_HE(GetX), HS_MM_U, HA(start_tx), HA(probe_others), HA(fwd_getx_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MM_U) | CC_HS(B_EM), CC_HE(Done), HS_EM, HA(set_owner)),
    /* answers every transaction counts */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M), CC_HE(Mem_Data), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(MS_F) | CC_HS(MG_F) | CC_HS(GG_N) | CC_HS(SS_N) | CC_HS(IS_M) | CC_HS(MM_U) |
               CC_HS(B_EM) | CC_HS(B_S),
           CC_HE(Unblock), CC_SAME, HA(count_answer)),
    /* evictions: the last copy of a GOLS line is written back */
    CC_ROW(CC_HS(S) | CC_HS(GOLS), CC_HE(PutS), CC_SAME, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(S), CC_HE(PutS_Last), HS_I, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(GOLS), CC_HE(PutS_Last), HS_I, HA(write_memory), HA(remove_sender),
           HA(send_put_ack)),
    CC_ROW(CC_HS(EM), CC_HE(PutX_Last), HS_I, HA(write_memory), HA(remove_sender),
           HA(send_put_ack)),
    CC_ROW(CC_HS(I) | CC_HS(S) | CC_HS(EM) | CC_HS(GOLS), CC_HE(Put_Stale), CC_SAME,
           HA(send_put_ack)),
    /* one transaction per line: the others wait (reads of a GOLS line join) */
    CC_ROW(CC_HS(IM_M) | CC_HS(MS_F) | CC_HS(MG_F) | CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_S),
           CC_HOME_REQUESTS_NO_SHARED_OWNER, CC_SAME, HA(stall)),
    CC_ROW(CC_HS(GG_N) | CC_HS(SS_N) | CC_HS(IE_M) | CC_HS(IS_M),
           CC_HOME_REQUESTS_NO_SHARED_OWNER & ~CC_HE(GetS), CC_SAME, HA(stall)),
    /* broadcast probes are answered while the transaction runs */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(MS_F) | CC_HS(MG_F) | CC_HS(GG_N) | CC_HS(SS_N) |
               CC_HS(IS_M) | CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_S),
           CC_HE(Probe_Ack), CC_SAME, HA(count_answer)),
};

static const char *const gols_home_alias[HS_COUNT] = {
    [HS_I] = "GI", [HS_S] = "GS", [HS_EM] = "GE/GM", [HS_GOLS] = "GOLS"};

const struct cc_protocol cc_gols = {
    .name = "gols",
    .summary = "GOLS: MESI cores under distributed tag directories (Xeon Phi KNC)",
    .reading = "Cores run MESI; a distributed tag directory (chosen by a hash of the address) "
               "keeps a global state per line: GI (no copy), GS (clean sharers), GE/GM (one "
               "owner in E or M) and GOLS (Globally Owned, Locally Shared). A modified line read "
               "by another core becomes Shared in both caches while the directory marks it GOLS: "
               "dirty, but not written to memory. Reads of a GOLS line are answered by one of "
               "the sharers (memory is stale); a write invalidates the others, whose acks the "
               "writer collects itself while a sharer sends it the line (or the directory grants "
               "it its own copy), so a write costs one transfer. The write-back "
               "happens when the last copy leaves: a sharer's eviction carries the line, and the "
               "directory writes it to memory if it was the last one.",
    .cache = {gols_cache, SIM_COUNT_OF(gols_cache), NULL},
    .home = {gols_home, SIM_COUNT_OF(gols_home), gols_home_alias},
    .puts_carry_data = true,
};
