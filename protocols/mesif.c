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

/* Tables as macros: the rows both homes and both caches share, once. */
// clang-format off
/* The caches' rows. */
#define MESIF_CACHE_ROWS                                                                           \
    /* the core's requests */                                                                      \
    CC_ROW(CC_S(I), CC_E(Load), CS_IS_D, CA(send_gets), CA(stall)),                                \
    CC_ROW(CC_S(I), CC_E(Store), CS_IM_D, CA(send_getx), CA(stall)),                               \
    CC_ROW(CC_S(S) | CC_S(E) | CC_S(M) | CC_S(F) | CC_S(SM_D) | CC_S(FM_D), CC_E(Load), CC_SAME,   \
           CA(perform_request)),                                                                   \
    CC_ROW(CC_S(S), CC_E(Store), CS_SM_D, CA(send_upgrade), CA(stall)),                            \
    CC_ROW(CC_S(F), CC_E(Store), CS_FM_D, CA(send_upgrade), CA(stall)),                            \
    CC_ROW(CC_S(E), CC_E(Store), CS_M, CA(perform_request)),                                       \
    CC_ROW(CC_S(M), CC_E(Store), CC_SAME, CA(perform_request)),                                    \
    CC_ROW(CC_S(IS_D) | CC_S(IM_D) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A),\
           CC_E(Load) | CC_E(Store), CC_SAME, CA(stall)),                                          \
    CC_ROW(CC_S(SM_D) | CC_S(FM_D), CC_E(Store), CC_SAME, CA(stall)),                              \
    /* replacement */                                                                              \
    CC_ROW(CC_S(S), CC_E(Replace), CS_SI_A, CA(send_puts)),                                        \
    CC_ROW(CC_S(F), CC_E(Replace), CS_FI_A, CA(send_puts)),                                        \
    CC_ROW(CC_S(E), CC_E(Replace), CS_EI_A, CA(send_putx)),                                        \
    CC_ROW(CC_S(M), CC_E(Replace), CS_MI_A, CA(send_putx)),                                        \
    /* data and grants */                                                                          \
    CC_ROW(CC_S(IS_D), CC_E(Data_E), CS_E, CA(write_data), CA(send_unblock)),                      \
    CC_ROW(CC_S(IS_D), CC_E(Data_F), CS_F, CA(write_data), CA(send_unblock)),                      \
    CC_ROW(CC_S(IM_D), CC_E(Data_M), CS_M, CA(write_data), CA(send_unblock)),                      \
    CC_ROW(CC_S(SM_D) | CC_S(FM_D), CC_E(Grant), CS_M, CA(send_unblock)),                          \
    /* the home's requests */                                                                      \
    CC_ROW(CC_S(S) | CC_S(F), CC_E(Inv), CS_I, CA(send_inv_ack)),                                  \
    CC_ROW(CC_S(SM_D) | CC_S(FM_D), CC_E(Inv), CS_IM_D, CA(send_inv_ack)),                         \
    CC_ROW(CC_S(SI_A) | CC_S(FI_A), CC_E(Inv), CS_II_A, CA(send_inv_ack)),                         \
    CC_ROW(CC_S(F) | CC_S(E), CC_E(Fwd_GetS), CS_S, CA(send_data_f_to_req), CA(send_fwd_ack)),     \
    CC_ROW(CC_S(FM_D), CC_E(Fwd_GetS), CS_SM_D, CA(send_data_f_to_req), CA(send_fwd_ack)),         \
    CC_ROW(CC_S(FI_A), CC_E(Fwd_GetS), CS_SI_A, CA(send_data_f_to_req), CA(send_fwd_ack)),         \
    CC_ROW(CC_S(M), CC_E(Fwd_GetS), CS_S, CA(send_data_f_to_req), CA(send_fwd_ack_data)),          \
    CC_ROW(CC_S(E) | CC_S(M), CC_E(Fwd_GetX), CS_I, CA(send_data_m_to_req)),                       \
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetS), CS_II_A, CA(send_data_f_to_req),               \
           CA(send_fwd_ack_data)),                                                                 \
    CC_ROW(CC_S(MI_A) | CC_S(EI_A), CC_E(Fwd_GetX), CS_II_A, CA(send_data_m_to_req)),              \
    CC_ROW0(CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A), CC_E(Put_Ack), CS_I),  \
    /* a broadcast probe: whatever the state, answer it */                                         \
    CC_ROW(CC_S(I) | CC_S(S) | CC_S(E) | CC_S(M) | CC_S(F) | CC_S(IS_D) | CC_S(IM_D) | CC_S(SM_D) |\
               CC_S(FM_D) | CC_S(MI_A) | CC_S(EI_A) | CC_S(SI_A) | CC_S(FI_A) | CC_S(II_A),        \
           CC_E(Probe), CC_SAME, CA(send_probe_ack)),

/* The homes' rows but those of a read of a clean shared line (SF) and the
 * busy states'. */
#define MESIF_HOME_ROWS                                                                            \
    /* reads */                                                                                    \
    CC_ROW(CC_HS(I), CC_HE(GetS), HS_IE_M, HA(start_tx), HA(probe_others), HA(read_memory)),       \
    CC_ROW(CC_HS(IE_M), CC_HE(Done), HS_B_EM, HA(send_data_e), HA(await_unblock)),                 \
    CC_ROW(CC_HS(S), CC_HE(GetS), HS_SS_M, HA(start_tx), HA(probe_others), HA(read_memory)),       \
    CC_ROW(CC_HS(SS_M), CC_HE(Done), HS_B_SF, HA(send_data_f), HA(await_unblock)),                 \
    CC_ROW(CC_HS(B_SF), CC_HE(Done), HS_SF, HA(add_sharer), HA(set_forwarder)),                    \
    CC_ROW(CC_HS(EM), CC_HE(GetS), HS_MS_F, HA(start_tx), HA(probe_others), HA(fwd_gets_to_owner), \
           HA(await_unblock)),                                                                     \
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack), CC_SAME, HA(count_answer)),                                \
    CC_ROW(CC_HS(MS_F), CC_HE(Fwd_Ack_Data), CC_SAME, HA(take_fwd_data), HA(note_gone),            \
           HA(count_answer)),                                                                      \
    CC_ROW(CC_HS(MS_F), CC_HE(Done), HS_SF, HA(add_owner_as_sharer), HA(add_sharer),               \
           HA(set_forwarder)),                                                                     \
    /* writes */                                                                                   \
    CC_ROW(CC_HS(I), CC_HE(GetX), HS_IM_M, HA(start_tx), HA(probe_others), HA(read_memory)),       \
    CC_ROW(CC_HS(IM_M), CC_HE(Done), HS_B_EM, HA(send_data_m), HA(await_unblock)),                 \
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(GetX), HS_SM_A, HA(start_tx), HA(probe_others),             \
           HA(inv_sharers), HA(read_memory)),                                                      \
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(Upgrade), HS_SM_A, HA(start_tx), HA(probe_others),          \
           HA(inv_sharers)),                                                                       \
    CC_ROW(CC_HS(SM_A), CC_HE(Inv_Ack), CC_SAME, HA(count_answer)),                                \
    CC_ROW(CC_HS(SM_A), CC_HE(Done), HS_B_EM, HA(send_data_or_grant), HA(await_unblock)),          \
    CC_ROW(CC_HS(EM), CC_HE(GetX), HS_MM_U, HA(start_tx), HA(probe_others), HA(fwd_getx_to_owner), \
           HA(await_unblock)),                                                                     \
    CC_ROW(CC_HS(MM_U) | CC_HS(B_EM), CC_HE(Done), HS_EM, HA(set_owner)),                          \
    /* answers every transaction counts */                                                         \
    CC_ROW(CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A), CC_HE(Mem_Data), CC_SAME,        \
           HA(count_answer)),                                                                      \
    CC_ROW(CC_HS(MS_F) | CC_HS(MM_U) | CC_HS(B_EM) | CC_HS(B_SF), CC_HE(Unblock), CC_SAME,         \
           HA(count_answer)),                                                                      \
    /* evictions */                                                                                \
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(PutS), CC_SAME, HA(remove_sender), HA(send_put_ack)),       \
    CC_ROW(CC_HS(SF), CC_HE(PutF), HS_S, HA(remove_sender), HA(send_put_ack)),                     \
    CC_ROW(CC_HS(S) | CC_HS(SF), CC_HE(PutS_Last), HS_I, HA(remove_sender), HA(send_put_ack)),     \
    CC_ROW(CC_HS(EM), CC_HE(PutX_Last), HS_I, HA(write_memory), HA(remove_sender),                 \
           HA(send_put_ack)),                                                                      \
    CC_ROW(CC_HS(I) | CC_HS(S) | CC_HS(SF) | CC_HS(EM), CC_HE(Put_Stale), CC_SAME,                 \
           HA(send_put_ack)),

/* The states in which a home runs a transaction on the line. */
#define MESIF_BUSY                                                                                 \
    (CC_HS(IE_M) | CC_HS(IM_M) | CC_HS(SS_M) | CC_HS(SM_A) | CC_HS(MS_F) | CC_HS(MM_U) |           \
     CC_HS(B_EM) | CC_HS(B_SF))

static const struct cc_row mesif_cache[] = {MESIF_CACHE_ROWS};

static const struct cc_row mesif_home[] = {
    MESIF_HOME_ROWS
    /* a read of a shared line is forwarded to the forwarder, one at a time */
    CC_ROW(CC_HS(SF), CC_HE(GetS), HS_FF_F, HA(start_tx), HA(probe_others),
           HA(fwd_gets_to_forwarder), HA(await_unblock)),
    CC_ROW(CC_HS(FF_F), CC_HE(Fwd_Ack) | CC_HE(Unblock), CC_SAME, HA(count_answer)),
    CC_ROW(CC_HS(FF_F), CC_HE(Done), HS_SF, HA(add_sharer), HA(set_forwarder)),
    /* one transaction per line: the others wait */
    CC_ROW(MESIF_BUSY | CC_HS(FF_F), CC_HOME_REQUESTS & ~CC_HE(PutX), CC_SAME, HA(stall)),
    /* broadcast probes are answered while the transaction runs */
    CC_ROW(MESIF_BUSY | CC_HS(FF_F), CC_HE(Probe_Ack), CC_SAME, HA(count_answer)),
};

/* Behind an inclusive LLC a reader may get its data from the home, shared. */
static const struct cc_row mesif_llc_cache[] = {
    MESIF_CACHE_ROWS
    CC_ROW(CC_S(IS_D), CC_E(Data_S), CS_S, CA(write_data), CA(send_unblock)),
};

/* Behind an inclusive LLC (Sandy Bridge's: each slice keeps a copy of every
 * line a core of its socket holds, with a core-valid bit a core: Intel Xeon
 * E5-2600 uncore performance monitoring guide, CBo), a read of a clean shared
 * line is an LLC hit: the slice answers it from its copy and asks no core.
 * Reads of the line pipeline there, each reader a sharer at once; the line
 * takes no write until their unblocks are in. So the readers of one line do
 * not queue behind each other (seed 000 Sec 2.2.2: "Intra-socket results on
 * Sandy Bridge show very low contention"). */
static const struct cc_row mesif_llc_home[] = {
    MESIF_HOME_ROWS
    CC_ROW(CC_HS(SF), CC_HE(GetS), HS_FF_N, HA(start_tx), HA(probe_others),
           HA(share_read_memory)),
    CC_ROW(CC_HS(FF_N), CC_HE(GetS), CC_SAME, HA(share_read_memory)),
    CC_ROW(CC_HS(FF_N), CC_HE(Unblock), CC_SAME, HA(count_answer)),
    CC_ROW0(CC_HS(FF_N), CC_HE(Done), HS_SF),
    /* one transaction per line: the others wait (reads of a shared line join it) */
    CC_ROW(MESIF_BUSY, CC_HOME_REQUESTS & ~CC_HE(PutX), CC_SAME, HA(stall)),
    CC_ROW(CC_HS(FF_N), CC_HOME_REQUESTS & ~(CC_HE(GetS) | CC_HE(PutX)), CC_SAME, HA(stall)),
    /* broadcast probes are answered while the transaction runs */
    CC_ROW(MESIF_BUSY | CC_HS(FF_N), CC_HE(Probe_Ack), CC_SAME, HA(count_answer)),
};
// clang-format on

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

const struct cc_protocol cc_mesif_llc = {
    .name = "mesif-llc",
    .summary = "MESIF behind an inclusive LLC that answers reads of clean shared lines (Intel "
               "Sandy Bridge-EP)",
    .reading = "As MESIF, but the home is an inclusive last-level cache: a read of a clean line "
               "with sharers is answered by the LLC from its own copy, not by the F copy, and "
               "reads of one line pipeline there (each reader a sharer at once, the line taking "
               "no write until every reader's unblock is in). A modified or exclusive line is "
               "still read from its owner, which becomes S while the reader becomes F.",
    .cache = {mesif_llc_cache, SIM_COUNT_OF(mesif_llc_cache), NULL},
    .home = {mesif_llc_home, SIM_COUNT_OF(mesif_llc_home), NULL},
    .puts_carry_data = false,
};
