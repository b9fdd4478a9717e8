/*
 * msi.c -- MSI: the textbook baseline, the directory protocol of Sorin, Hill
 * and Wood's Primer (A Primer on Memory Consistency and Cache Coherence,
 * chapter 8), on the runtime every other protocol runs on.
 *
 * Reading: three stable states in the caches, I, S and M; the directory
 * knows I (no copy), S (sharers, memory up to date) and M (one owner,
 * memory stale). A read miss always gets a Shared copy, even when no other
 * cache holds the line: there is no E, so a core that reads a line and then
 * writes it asks the directory twice (GetS, then an upgrade). A read of a
 * line held in M is forwarded to the owner, which sends the data to the
 * reader and back to the directory (the Primer's S^D state: the directory
 * waits for that data before the line is Shared); a write of a line held in
 * M is forwarded too, and the owner hands the line over. A write to a
 * Shared line invalidates the other sharers.
 *
 * Where it differs from the Primer's tables, it is because the runtime is
 * shared by every protocol: the directory, not the requester, counts the
 * invalidation acks (GOLS's writers count their own) (the Primer's Data carries an ack count and
 * the requester waits in IM^AD / SM^AD for the acks), and every transaction ends with the
 * requester's unblock, so the directory takes one request per line at a time (the Primer's
 * directory stalls in its transient states too). Evictions are announced (PutS, PutM) and
 * acknowledged, as in the Primer.
 */
#include "cc_internal.h"

static const struct cc_row msi_cache[] = {
    /* the core's requests */
    CC_ROW(CC_S(I), CC_E(Load), CS_IS_D, CA(send_gets), CA(stall)),
    CC_ROW(CC_S(I), CC_E(Store), CS_IM_D, CA(send_getx), CA(stall)),
    CC_ROW(CC_S(S) | CC_S(M) | CC_S(SM_D), CC_E(Load), CC_SAME, CA(perform_request)),
    CC_ROW(CC_S(S), CC_E(Store), CS_SM_D, CA(send_upgrade), CA(stall)),
    CC_ROW(CC_S(M), CC_E(Store), CC_SAME, CA(perform_request)),
    CC_ROW(CC_S(IS_D) | CC_S(IM_D) | CC_S(MI_A) | CC_S(SI_A) | CC_S(II_A), CC_E(Load) | CC_E(Store),
           CC_SAME, CA(stall)),
    CC_ROW(CC_S(SM_D), CC_E(Store), CC_SAME, CA(stall)),
    /* replacement */
    CC_ROW(CC_S(S), CC_E(Replace), CS_SI_A, CA(send_puts)),
    CC_ROW(CC_S(M), CC_E(Replace), CS_MI_A, CA(send_putx)),
    /* data and grants */
    CC_ROW(CC_S(IS_D), CC_E(Data_S), CS_S, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IM_D), CC_E(Data_M), CS_M, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(SM_D), CC_E(Grant), CS_M, CA(send_unblock)),
    /* the directory's requests */
    CC_ROW(CC_S(S), CC_E(Inv), CS_I, CA(send_inv_ack)),
    CC_ROW(CC_S(SM_D), CC_E(Inv), CS_IM_D, CA(send_inv_ack)),
    CC_ROW(CC_S(SI_A), CC_E(Inv), CS_II_A, CA(send_inv_ack)),
    CC_ROW(CC_S(M), CC_E(Fwd_GetS), CS_S, CA(send_data_s_to_req), CA(send_fwd_ack_data)),
    CC_ROW(CC_S(M), CC_E(Fwd_GetX), CS_I, CA(send_data_m_to_req)),
    CC_ROW(CC_S(MI_A), CC_E(Fwd_GetS), CS_II_A, CA(send_data_s_to_req), CA(send_fwd_ack_data)),
    CC_ROW(CC_S(MI_A), CC_E(Fwd_GetX), CS_II_A, CA(send_data_m_to_req)),
    CC_ROW0(CC_S(MI_A) | CC_S(SI_A) | CC_S(II_A), CC_E(Put_Ack), CS_I),
    /* a broadcast probe: whatever the state, answer it */
    CC_ROW(CC_S(I) | CC_S(S) | CC_S(M) | CC_S(IS_D) | CC_S(IM_D) | CC_S(SM_D) | CC_S(MI_A) |
               CC_S(SI_A) | CC_S(II_A),
           CC_E(Probe), CC_SAME, CA(send_probe_ack)),
};

static const struct cc_row msi_home[] = {
    /* reads: from memory when nobody owns the line, Shared even if alone */
    CC_ROW(CC_HS(I) | CC_HS(S), CC_HE(GetS), HS_SS_M, HA(start_tx), HA(probe_others),
           HA(read_memory)),
    CC_ROW(CC_HS(SS_M), CC_HE(Done), HS_B_S, HA(send_data_s), HA(await_unblock)),
    CC_ROW(CC_HS(B_S), CC_HE(Done), HS_S, HA(add_sharer)),
    /* a read of an M line: the owner sends the data to the reader and back
     * here (the Primer's S^D) */
    CC_ROW(CC_HS(EM), CC_HE(GetS), HS_MS_F, HA(start_tx), HA(probe_others), HA(fwd_gets_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack_Data), CC_SAME, HA(take_fwd_data), HA(note_gone),
           HA(count_answer)),
    CC_ROW(CC_HS(MS_F), CC_HE(Done), HS_S, HA(add_owner_as_sharer), HA(add_sharer)),
    /* writes */
    CC_ROW(CC_HS(I), CC_HE(GetX), HS_IM_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(IM_M), CC_HE(Done), HS_B_EM, HA(send_data_m), HA(await_unblock)),
    CC_ROW(CC_HS(S), CC_HE(GetX), HS_SM_A, HA(start_tx), HA(probe_others), HA(inv_sharers),
           HA(read_memory)),
    CC_ROW(CC_HS(S), CC_HE(Upgrade), HS_SM_A, HA(start_tx), HA(probe_others), HA(inv_sharers)),
    CC_ROW(CC_HS(SM_A), CC_HE(Inv_Ack), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(SM_A), CC_HE(Done), HS_B_EM, HA(send_data_or_grant), HA(await_unblock)),
    CC_ROW(CC_HS(EM), CC_HE(GetX), HS_MM_U, HA(start_tx), HA(probe_others), HA(fwd_getx_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MM_U) | CC_HS(B_EM), CC_HE(Done), HS_EM, HA(set_owner)),
    /* answers every transaction counts */
    CC_ROW(CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A), CC_HE(Mem_Data), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(MS_F) | CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_S), CC_HE(Unblock), CC_SAME,
           HA(count_answer)),
    /* evictions */
    CC_ROW(CC_HS(S), CC_HE(PutS), CC_SAME, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(S), CC_HE(PutS_Last), HS_I, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(EM), CC_HE(PutX_Last), HS_I, HA(write_memory), HA(remove_sender),
           HA(send_put_ack)),
    CC_ROW(CC_HS(I) | CC_HS(S) | CC_HS(EM), CC_HE(Put_Stale), CC_SAME, HA(send_put_ack)),
    /* one transaction per line: the others wait */
    CC_ROW(CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(MM_U) | CC_HS(B_EM) |
               CC_HS(B_S),
           CC_HOME_REQUESTS_NO_SHARED_OWNER, CC_SAME, HA(stall)),
    /* broadcast probes are answered while the transaction runs */
    CC_ROW(CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(MM_U) | CC_HS(B_EM) |
               CC_HS(B_S),
           CC_HE(Probe_Ack), CC_SAME, HA(count_answer)),
};

static const char *const msi_home_alias[HS_COUNT] = {[HS_EM] = "M"};

const struct cc_protocol cc_msi = {
    .name = "msi",
    .summary = "MSI: the textbook directory protocol (Sorin, Hill and Wood's Primer, ch. 8)",
    .reading = "Three stable states, I, S and M; the directory knows I, S and M (one owner). A "
               "read miss always gets a Shared copy, even when no other cache holds the line: "
               "there is no E, so a core that reads a line and then writes it asks the directory "
               "twice (a GetS, then an upgrade). A read of an M line is forwarded to the owner, "
               "which sends the data to the reader and back to the directory (the Primer's S^D "
               "state); a write of an M line is forwarded and the owner hands the line over; a "
               "write to a Shared line invalidates the other sharers. As on every protocol of "
               "this runtime but GOLS, the directory (not the requester, as in the Primer) counts "
               "the invalidation acks, and each transaction ends with the requester's unblock.",
    .cache = {msi_cache, SIM_COUNT_OF(msi_cache), NULL},
    .home = {msi_home, SIM_COUNT_OF(msi_home), msi_home_alias},
    .puts_carry_data = false,
};
