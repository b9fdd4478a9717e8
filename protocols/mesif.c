/*
 * mesif.c -- MESIF: Intel's MESI with a Forward state (Sandy Bridge; seed 000
 * Sec 2.1.1).
 *
 * Reading: among the sharers of a clean line one holds it in F and answers
 * reads, so only one copy replies (across sockets this is the only copy that
 * answers a snoop). The last requester becomes F and the old F becomes S. A
 * read of a line with sharers but no F (the F copy was evicted) is served by
 * the home, and the reader becomes F. Otherwise as MESI.
 */
#include "cc_internal.h"

static const struct cc_row mesif_cache[] = {
    /* the core's requests */
    CC_ROW(CC_S(I), CC_E(Load), CS_IS_D, CA(send_gets), CA(stall)),
    CC_ROW(CC_S(I), CC_E(Store), CS_IM_D, CA(send_getx), CA(stall)),
    CC_ROW(CC_S(S) | CC_S(E) | CC_S(M) | CC_S(F) | CC_S(SM_D) | CC_S(FM_D), CC_E(Load), CC_SAME,
           CA(perform_request)),
    CC_ROW(CC_S(S), CC_E(Store), CS_SM_D, CA(send_upgrade), CA(stall)),
    CC_ROW(CC_S(F), CC_E(Store), CS_FM_D, CA(send_upgrade), CA(stall)),
    CC_ROW(CC_S(E), CC_E(Store), CS_M, CA(perform_request)),
    CC_ROW(CC_S(M), CC_E(Store), CC_SAME, CA(perform_request)),
    CC_ROW(CC_S(IS_D) | CC_S(IM_D) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A),
           CC_E(Load) | CC_E(Store), CC_SAME, CA(stall)),
    CC_ROW(CC_S(SM_D) | CC_S(FM_D), CC_E(Store), CC_SAME, CA(stall)),
    /* replacement */
    CC_ROW(CC_S(S), CC_E(Replace), CS_SI_A, CA(send_puts)),
    CC_ROW(CC_S(F), CC_E(Replace), CS_FI_A, CA(send_puts)),
    CC_ROW(CC_S(E), CC_E(Replace), CS_EI_A, CA(send_putx)),
    CC_ROW(CC_S(M), CC_E(Replace), CS_MI_A, CA(send_putx)),
    /* data and grants */
    CC_ROW(CC_S(IS_D), CC_E(Data_E), CS_E, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IS_D), CC_E(Data_F), CS_F, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(IM_D), CC_E(Data_M), CS_M, CA(write_data), CA(send_unblock)),
    CC_ROW(CC_S(SM_D) | CC_S(FM_D), CC_E(Grant), CS_M, CA(send_unblock)),
    /* the home's requests */
    CC_ROW(CC_S(S) | CC_S(F), CC_E(Inv), CS_I, CA(send_inv_ack)),
    CC_ROW(CC_S(SM_D) | CC_S(FM_D), CC_E(Inv), CS_IM_D, CA(send_inv_ack)),
    CC_ROW(CC_S(SI_A) | CC_S(FI_A), CC_E(Inv), CS_II_A, CA(send_inv_ack)),
    CC_ROW(CC_S(F) | CC_S(E), CC_E(Fwd_GetS), CS_S, CA(send_data_f_to_req), CA(send_fwd_ack)),
    CC_ROW(CC_S(FM_D), CC_E(Fwd_GetS), CS_SM_D, CA(send_data_f_to_req), CA(send_fwd_ack)),
    CC_ROW(CC_S(FI_A), CC_E(Fwd_GetS), CS_SI_A, CA(send_data_f_to_req), CA(send_fwd_ack)),
    CC_ROW(CC_S(M), CC_E(Fwd_GetS), CS_S, CA(send_data_f_to_req), CA(send_fwd_ack_data)),
    CC_ROW(CC_S(E) | CC_S(M), CC_E(Fwd_GetX), CS_I, CA(send_data_m_to_req)),
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetS), CS_II_A, CA(send_data_f_to_req),
           CA(send_fwd_ack_data)),
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetX), CS_II_A, CA(send_data_m_to_req)),
    CC_ROW0(CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A), CC_E(Put_Ack), CS_I),
    /* a broadcast probe: whatever the state, answer it */
    CC_ROW(CC_S(I) | CC_S(S) | CC_S(E) | CC_S(M) | CC_S(F) | CC_S(IS_D) | CC_S(IM_D) | CC_S(SM_D) |
               CC_S(FM_D) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A),
           CC_E(Probe), CC_SAME, CA(send_probe_ack)),
};

static const struct cc_row mesif_home[] = {
    /* reads */
    CC_ROW(CC_HS(I), CC_HE(GetS), HS_IE_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(IE_M), CC_HE(Done), HS_B_EM, HA(send_data_e), HA(await_unblock)),
    CC_ROW(CC_HS(S), CC_HE(GetS), HS_SS_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(SS_M), CC_HE(Done), HS_B_SF, HA(send_data_f), HA(await_unblock)),
    CC_ROW(CC_HS(B_SF), CC_HE(Done), HS_SF, HA(add_sharer), HA(set_forwarder)),
    CC_ROW(CC_HS(SF), CC_HE(GetS), HS_FF_F, HA(start_tx), HA(probe_others),
           HA(fwd_gets_to_forwarder), HA(await_unblock)),
    CC_ROW(CC_HS(FF_F), CC_HE(Fwd_Ack), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(FF_F), CC_HE(Done), HS_SF, HA(add_sharer), HA(set_forwarder)),
    CC_ROW(CC_HS(EM), CC_HE(GetS), HS_MS_F, HA(start_tx), HA(probe_others), HA(fwd_gets_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack_Data), CC_SAME, HA(take_fwd_data), HA(note_gone),
           HA(count_answer)),
    CC_ROW(CC_HS(MS_F), CC_HE(Done), HS_SF, HA(add_owner_as_sharer), HA(add_sharer),
           HA(set_forwarder)),
    /* writes */
    CC_ROW(CC_HS(I), CC_HE(GetX), HS_IM_M, HA(start_tx), HA(probe_others), HA(read_memory)),
    CC_ROW(CC_HS(IM_M), CC_HE(Done), HS_B_EM, HA(send_data_m), HA(await_unblock)),
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(GetX), HS_SM_A, HA(start_tx), HA(probe_others),
           HA(inv_sharers), HA(read_memory)),
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(Upgrade), HS_SM_A, HA(start_tx), HA(probe_others),
           HA(inv_sharers)),
    CC_ROW(CC_HS(SM_A), CC_HE(Inv_Ack), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(SM_A), CC_HE(Done), HS_B_EM, HA(send_data_or_grant), HA(await_unblock)),
    CC_ROW(CC_HS(EM), CC_HE(GetX), HS_MM_U, HA(start_tx), HA(probe_others), HA(fwd_getx_to_owner),
           HA(await_unblock)),
    CC_ROW(CC_HS(MM_U) | CC_HS(B_EM), CC_HE(Done), HS_EM, HA(set_owner)),
    /* answers every transaction counts */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A), CC_HE(Mem_Data), CC_SAME,
           HA(count_answer)),
    CC_ROW(CC_HS(MS_F) | CC_HS(FF_F) | CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_SF), CC_HE(Unblock),
           CC_SAME, HA(count_answer)),
    /* evictions */
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(PutS), CC_SAME, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(SF), CC_HE(PutF), HS_S, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(PutS_Last), HS_I, HA(remove_sender), HA(send_put_ack)),
    CC_ROW(CC_HS(EM), CC_HE(PutX_Last), HS_I, HA(write_memory), HA(remove_sender),
           HA(send_put_ack)),
    CC_ROW(CC_HS(I) | CC_HS(S) | CC_HS(SF) | CC_HS(EM), CC_HE(Put_Stale), CC_SAME,
           HA(send_put_ack)),
    /* one transaction per line: the others wait */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(FF_F) |
               CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_SF),
           CC_HOME_REQUESTS, CC_SAME, HA(stall)),
    /* broadcast probes are answered while the transaction runs */
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(FF_F) |
               CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_SF),
           CC_HE(Probe_Ack), CC_SAME, HA(count_answer)),
};

const struct cc_protocol cc_mesif = {
    .name = "mesif",
    .summary = "MESIF: MESI with a Forward copy (Intel Sandy Bridge)",
    .reading = "Among the sharers of a clean line one holds it in F and answers reads, so only "
               "one copy replies (across sockets it is the only copy that answers a snoop). The "
               "last requester becomes F and the old F becomes S. A read of a line with sharers "
               "but no F (the F copy was evicted) is served by the home, and the reader becomes "
               "F. Otherwise as MESI.",
    .cache = {mesif_cache, SIM_COUNT_OF(mesif_cache), NULL},
    .home = {mesif_home, SIM_COUNT_OF(mesif_home), NULL},
    .puts_carry_data = false,
};
