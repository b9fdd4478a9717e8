/*
 * mesi.c -- MESI: the baseline (seed 001 Sec III, Table II).
 *
 * Reading: a directory home (the inclusive LLC's core-valid bits) that
 * serves one transaction per line and collects invalidation acks itself;
 * a shared line's data comes from the home, an owned one's from its owner.
 *   - Store Hit Shared: the sharer asks to upgrade, the home invalidates the
 *     other sharers and grants (seed 001 step 2).
 *   - Load Miss Modified: the owner sends the data to the reader and writes
 *     the line back; both end Shared (seed 001 step 3), since no cache may
 *     hold a dirty shared copy.
 *   - Every eviction is announced (PutS/PutX) so the directory stays exact.
 */
#include "cc_internal.h"

static const struct cc_row mesi_cache[] = {
    /* the core's requests */
    CC_ROW(CC_S(I), CC_E(Load), CS_IS_D, CA(send_gets), CA(stall)),
    CC_ROW(CC_S(I), CC_E(Store), CS_IM_D, CA(send_getx), CA(stall)),
    CC_ROW(CC_S(S) | CC_S(E) | CC_S(M) | CC_S(SM_D), CC_E(Load), CC_SAME, CA(perform_request)),
    CC_ROW(CC_S(S), CC_E(Store), CS_SM_D, CA(send_upgrade), CA(stall)),
    CC_ROW(CC_S(E), CC_E(Store), CS_M, CA(perform_request)),
    CC_ROW(CC_S(M), CC_E(Store), CC_SAME, CA(perform_request)),
    CC_ROW(CC_S(IS_D) | CC_S(IM_D) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(II_A),
           CC_E(Load) | CC_E(Store), CC_SAME, CA(stall)),
    CC_ROW(CC_S(SM_D), CC_E(Store), CC_SAME, CA(stall)),
    /* replacement */
    CC_ROW(CC_S(S), CC_E(Replace), CS_SI_A, CA(send_puts)),
    CC_ROW(CC_S(E), CC_E(Replace), CS_EI_A, CA(send_putx)),
    CC_ROW(CC_S(M), CC_E(Replace), CS_MI_A, CA(send_putx)),
    /* data and grants */
    CC_ROW(CC_S(IS_D), CC_E(Data_S), CS_S, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IS_D), CC_E(Data_E), CS_E, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IM_D), CC_E(Data_M), CS_M, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(SM_D), CC_E(Grant), CS_M, CA(send_unblock)),
    /* the home's requests */
    CC_ROW(CC_S(S), CC_E(Inv), CS_I, CA(send_inv_ack)),
    CC_ROW(CC_S(SM_D), CC_E(Inv), CS_IM_D, CA(send_inv_ack)),
    CC_ROW(CC_S(SI_A), CC_E(Inv), CS_II_A, CA(send_inv_ack)),
    CC_ROW(CC_S(E), CC_E(Fwd_GetS), CS_S, CA(send_data_s_to_req), CA(send_fwd_ack)),
    CC_ROW(CC_S(M), CC_E(Fwd_GetS), CS_S, CA(send_data_s_to_req), CA(send_fwd_ack_data)),
    CC_ROW(CC_S(E) | CC_S(M), CC_E(Fwd_GetX), CS_I, CA(send_data_m_to_req)),
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetS), CS_II_A, CA(send_data_s_to_req),
           CA(send_fwd_ack_data)),
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetX), CS_II_A, CA(send_data_m_to_req)),
    CC_ROW0(CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(II_A), CC_E(Put_Ack), CS_I),
    /* a broadcast probe: whatever the state, answer it */
    CC_ROW(CC_S(I) | CC_S(S) | CC_S(E) | CC_S(M) | CC_S(IS_D) | CC_S(IM_D) | CC_S(SM_D) |
               CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(II_A),
           CC_E(Probe), CC_SAME, CA(send_probe_ack)),
};

static const struct cc_row mesi_home[] = {
    /* reads */
    CC_ROW(CC_HS(I), CC_HE(GetS), HS_IE_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(IE_M), CC_HE(Done), HS_B_EM, HA(send_data_e), HA(await_unblock)),
    CC_ROW(CC_HS(S), CC_HE(GetS), HS_SS_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(SS_M), CC_HE(Done), HS_B_S, HA(send_data_s), HA(await_unblock)),
    CC_ROW(CC_HS(EM), CC_HE(GetS), HS_MS_F, HA(start_tx), HA(probe_others), HA(fwd_gets_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack), CC_SAME, HA(count_answer)),
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
    CC_ROW(CC_HS(B_S), CC_HE(Done), HS_S, HA(add_sharer)),
    /* answers every transaction counts */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A), CC_HE(Mem_Data), CC_SAME,
           HA(count_answer)),
    CC_ROW(CC_HS(MS_F) | CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_S), CC_HE(Unblock), CC_SAME,
           HA(count_answer)),
    /* evictions */
    CC_ROW(CC_HS(S), CC_HE(PutS), CC_SAME, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(S), CC_HE(PutS_Last), HS_I, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(EM), CC_HE(PutX_Last), HS_I, HA(write_memory), HA(remove_sender),
           HA(send_put_ack)),
    CC_ROW(CC_HS(I) | CC_HS(S) | CC_HS(EM), CC_HE(Put_Stale), CC_SAME, HA(send_put_ack)),
    /* one transaction per line: the others wait */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(MM_U) |
               CC_HS(B_EM) | CC_HS(B_S),
           CC_HOME_REQUESTS_NO_SHARED_OWNER, CC_SAME, HA(stall)),
    /* broadcast probes are answered while the transaction runs */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(MM_U) |
               CC_HS(B_EM) | CC_HS(B_S),
           CC_HE(Probe_Ack), CC_SAME, HA(count_answer)),
};

const struct cc_protocol cc_mesi = {
    .name = "mesi",
    .summary = "MESI: the baseline (a directory home; a broadcast one without probe_filter)",
    .reading = "A directory home (the inclusive LLC's core-valid bits) serves one transaction "
               "per line and collects invalidation acks; a shared line's data comes from the "
               "home, an owned one's (E or M) straight from its owner. Store Hit Shared "
               "invalidates the other sharers; "
               "Load Miss Modified writes the line back and leaves both copies Shared.",
    .cache = {mesi_cache, SIM_COUNT_OF(mesi_cache), NULL},
    .home = {mesi_home, SIM_COUNT_OF(mesi_home), NULL},
    .puts_carry_data = false,
};
