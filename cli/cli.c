/*
 * cli.c -- `ccsim` dispatch, --help, --version and the shared option helpers.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct cli_cmd cli_cmds[] = {
    {"run", cli_run, "run a trace on a machine",
     "usage: ccsim run -c CONFIG (TRACE | -w GENERATOR[:k=v,...] -t THREADS [-i ITERS])\n"
     "                 [--seed S] [--json FILE [--per-iteration]] [--check] [--links]\n"
     "                 [--rows] [--max-errors N] [--max-time NS] [--set G.K=V ...]\n"
     "                 [--trace-out FILE.json [--trace-window FROM:TO] [--trace-max-bytes N]]\n"
     "                 [--plot FILE.png]\n"
     "\n"
     "Runs the trace (docs/DESIGN.md: the trace format) on the machine and prints\n"
     "the iteration latency (from each sync to the slowest thread's last mark),\n"
     "the counters, the checks and the simulation speed.\n"
     "\n"
     "  -c, --config CONFIG   the machine (a path or a shipped name)\n"
     "  -w, --workload GEN    a built-in generator instead of a trace (ccsim list generators)\n"
     "  -t, --threads N       the generator's threads\n"
     "  -i, --iterations K    the generator's iterations (default 100)\n"
     "  --seed S              random seed (default 1)\n"
     "  --json FILE           write the result as JSON (docs/DESIGN.md): latency, per-thread\n"
     "                        latencies, counters, checks; `--json -` writes it to stdout\n"
     "                        (the summary then goes to stderr)\n"
     "  --per-iteration       the JSON also lists every iteration's latency (and per thread)\n"
     "  --check               run the invariant checker on every access\n"
     "  --links               print every link's traffic (messages, bytes, use, queueing;\n"
     "                        a link that carried nothing is not listed)\n"
     "  --max-errors N        value errors printed in full (default 10; 0: all of them)\n"
     "  --max-time NS         stop the run at this simulated time if it has not ended\n"
     "                        (default 1e10: 10 s), with a report of the threads still\n"
     "                        running: a loop that changes memory for ever never\n"
     "                        looks stuck to the watchdog, and so ends here\n"
     "  --rows                print every (state, event) cell of the protocol's tables\n"
     "                        that ran, with its row's number and how often (the JSON\n"
     "                        always has them)\n"
     "  --trace-out FILE      write a Chrome trace-event JSON (Perfetto, chrome://tracing):\n"
     "                        ops per thread, line states per cache, message flows\n"
     "  --trace-window A:B    write only what happens from A to B ns (A: for to the end;\n"
     "                        with --trace-out)\n"
     "  --trace-max-bytes N   stop writing events past N bytes (N >= 1024, default 200M;\n"
     "                        with --trace-out); the threads' track names and the state\n"
     "                        bars open at the cap (ending there) come on top\n"
     "  --plot FILE.png       draw a histogram of the iteration latencies with gnuplot (PNG);\n"
     "                        its data and script stay beside it (FILE.dat, FILE.gp)\n"
     "  -s, --set G.K=V       override one config setting (repeatable)\n"
     "\n"
     "Exit status: 0 success; 1 a check failed (value error, coherence violation,\n"
     "deadlock, the run not over at --max-time), even if an output (--json, --plot,\n"
     "--trace-out) failed too; 2 bad input (FILE:LINE:COL: message), an output that\n"
     "cannot be written (checked before the run), or one that failed after a run\n"
     "that passed.\n"},
    {"microbench", cli_microbench, "measure the machine's line-transfer costs",
     "usage: ccsim microbench -c CONFIG [--json FILE] [-i ITERATIONS] [--set G.K=V ...]\n"
     "\n"
     "Measures, by running small traces through the simulator (seed 000 Sec 2.2):\n"
     "single-line reads by location and state (R_L own cache, R_R another core,\n"
     "R_Q another socket, R_I memory, R_QI the other socket's memory); contention\n"
     "(n threads read one line: fitted b + c n); congestion (n pairs read different\n"
     "lines across sockets: c per pair); multi-line copies (N = 1..128 lines: fitted\n"
     "q + o N). Prints them beside the papers' figures from the config's `model`\n"
     "section, with the error.\n"
     "\n"
     "  -c, --config CONFIG   the machine\n"
     "  --json FILE           write the figures as JSON (docs/DESIGN.md; - for stdout)\n"
     "  -i, --iterations K    iterations per measurement (default 21; the first is\n"
     "                        dropped as a cold start, the median of the rest kept)\n"
     "  -s, --set G.K=V       override one config setting (repeatable)\n"},
    {"calibrate", cli_calibrate, "fit a config's physical parameters to measured figures",
     "usage: ccsim calibrate -c CONFIG --targets FILE [--params KEY,...] [-o OUT.cfg]\n"
     "                       [-i ITERATIONS] [--max-evals N] [--set G.K=V ...]\n"
     "\n"
     "Fits the named parameters of CONFIG (numbers of any section: latencies,\n"
     "occupancies, snoop times, buffer counts, bandwidths; each within the bounds\n"
     "its schema declares) by simulation, so that the machine's microbenchmark\n"
     "figures (ccsim microbench) come close to the targets file's: a deterministic\n"
     "compass search on the sum of squared relative errors, every candidate\n"
     "loaded as --set overrides (a value the config refuses is never taken).\n"
     "Prints every target figure before and after and every parameter's old and\n"
     "new value. configs/targets/ has seed 000's Tables 1-4; a targets file is\n"
     "  targets = { source = \"what they are\"; R_R_ns = 235.8; contention_c_ns = 56.2;\n"
     "              params = [\"home.occupancy_cycles\"]; };\n"
     "with any of R_L_ns R_R_ns R_Q_ns R_I_ns R_QI_ns contention_b_ns contention_c_ns\n"
     "congestion_c_ns multiline_q_ns multiline_o_ns, and the slopes of Tables 2-4\n"
     "measured the paper's way: table2_EE_c_ns .. table2_II_c_ns, table3_intra_o_ns,\n"
     "table3_inter_o_ns, table3_inter_c_ns, table4_EE_o_ns .. table4_II_o_ns; and Eq 3's\n"
     "intercept and a/n term of Table 2's I rows: table2_IE_b_ns table2_II_b_ns\n"
     "table2_IE_a_ns table2_II_a_ns. A row's curve is a target as its three numbers\n"
     "as the paper writes them (table2_EE .. table2_II [b, c, a], table3_intra and\n"
     "table3_inter [q, o, c], table4_EE .. table4_II [q, o, p], e.g. table3_inter =\n"
     "[180.65, 7.5, 3.0]): the row's simulated points with 8 or more readers or lines\n"
     "against it, counted as one figure (the mean of their squared relative errors)\n"
     "and printed as the largest deviation, before and after.\n"
     "\n"
     "  -c, --config CONFIG    the machine (a path or a shipped name)\n"
     "  --targets FILE         the figures to fit\n"
     "  --params KEY,...       the parameters to fit (default: the targets' params)\n"
     "  -o, --output OUT.cfg   write the config with the fitted values, each marked\n"
     "                         `calibrated: SOURCE (ccsim calibrate ...)`, and the\n"
     "                         --set overrides the measurements used\n"
     "  -i, --iterations K     iterations of each microbenchmark (default 21)\n"
     "  --max-evals N          microbenchmark runs at most (default 200)\n"
     "  -s, --set G.K=V        override one config setting (repeatable)\n"
     "\n"
     "Exit status: 0 success; 2 bad input (FILE:LINE: message).\n"},
    {"validate", cli_validate, "compare simulated algorithms with seed 000's models",
     "usage: ccsim validate -c CONFIG [-w GENERATOR ...] [--params paper|fitted]\n"
     "                      [-t LIST] [-i ITERS] [--tolerance PCT] [--json FILE]\n"
     "                      [--plot DIR] [--optimize]\n"
     "\n"
     "Runs every algorithm that has a model in seed 000 (pingpong: Eq 1; m2o,\n"
     "o2m: Tables 5-6; barrier-dissemination: Eq 27-29; barrier-multim: Sec 3.3.1;\n"
     "barrier-pairwise: Eq 30; barrier-socketroot: Eq 31; m2o-tree: Eq 6/8 a\n"
     "group; o2m-tree: Eq 26; bcast-tree, bcast-multiline: Eq 32 (with Eq 4);\n"
     "reduce-tree: Eq 33-34; reduce-binomial: Eq 35), and mpi-shm against seed\n"
     "001's Eq 1-3, at each thread count and prints the simulated min / median / max\n"
     "(the first iteration dropped) beside the model's T_min and T_max, whether\n"
     "the median is in the band (within the tolerance), the error against T_min,\n"
     "and how many points are in band. validate/validate.c says which equation applies where.\n"
     "\n"
     "  -c, --config CONFIG   the machine\n"
     "  -w, --workload GEN    a modelled generator (m2o, or m2o:lines=diff; repeatable;\n"
     "                        default: all)\n"
     "  --params paper        the config's `model` section (seed 000 Tables 1-2)\n"
     "  --params fitted       ccsim microbench's figures, the paper's way (Table 2 E/E's\n"
     "                        c, Table 3 intra's or the KNC's Table 4 E/E's q and o; 9\n"
     "                        iterations each); the default is paper if the config\n"
     "                        has them, else fitted\n"
     "  -t, --threads LIST    thread counts, e.g. 2,4,8 (default 2, 4, 8, ... and the cores)\n"
     "  -i, --iterations K    iterations per run (default 20)\n"
     "  --tolerance PCT       band tolerance in per cent (default 10)\n"
     "  --json FILE           write the rows and the in-band fraction as JSON (- for stdout)\n"
     "  --plot DIR            one PNG per algorithm (gnuplot): the model band shaded,\n"
     "                        the simulated median with min..max bars; threads on a log2\n"
     "                        axis when they are powers of two\n"
     "  --optimize            at the first --threads count (default: the cores), the\n"
     "                        model's best and the simulated best dissemination m = 1..7\n"
     "                        (Eq 27/29) and bcast-tree shape (Eq 32), with the\n"
     "                        speed-up over the untuned m = 1 (shape flat); no --json,\n"
     "                        --plot or -w with it\n"
     "  -s, --set G.K=V       override one config setting (repeatable)\n"},
    {"gen", cli_gen, "print a built-in generator's trace",
     "usage: ccsim gen GENERATOR[:k=v,...] -t THREADS [-i ITERATIONS] [-c CONFIG [--set G.K=V]]\n"
     "\n"
     "Prints the trace a built-in algorithm generator writes (ccsim list generators\n"
     "lists them with their parameters), to read, change and run with ccsim run.\n"
     "With -c, threads are pinned for that machine (one socket filled first) and\n"
     "the line size is the machine's.\n"
     "\n"
     "  -t, --threads N       threads (required)\n"
     "  -i, --iterations K    iterations (default 100)\n"
     "  -c, --config CONFIG   the machine to generate for\n"
     "  -s, --set G.K=V       override one config setting (repeatable; needs -c)\n"},
    {"explain", cli_explain, "a narrated log of every coherence step of a run",
     "usage: ccsim explain -c CONFIG (TRACE | -w GENERATOR[:k=v,...] -t THREADS [-i ITERS])\n"
     "                     [--line NAME[i]] [--thread T] [--iteration K] [--from NS] [--to NS]\n"
     "                     [--max-lines N] [--wide] [--check] [--seed S] [--max-time NS]\n"
     "                     [--set G.K=V ...]\n"
     "\n"
     "Runs like ccsim run and narrates every row a cache or a home runs, one step\n"
     "an entry: the time (ns), who (core N or home N), the line (the trace's name),\n"
     "what happened (by the protocol tables' names: Load, GetX, Fwd_GetS, Data_M,\n"
     "...), the state it met (a home's directory: owner, sharers) and what the row\n"
     "did there: the messages it sent, memory reads and write-backs, the\n"
     "directory's changes, the words of the line that changed, the state it moved\n"
     "to. An action that did nothing in this instance says nothing. A request\n"
     "names its thread and its iteration as the trace counts it (`it 3`). Lines\n"
     "stay under 120 characters; a legend of the names ends the log.\n"
     "\n"
     "  --line NAME[i]        narrate one declared line, array, or array element\n"
     "  --thread T            thread T's requests, its core's rows and transactions (and\n"
     "                        other threads' resets where they change its core's copy,\n"
     "                        and their requests' rows that change a copy its cache\n"
     "                        shares with them: a sibling's store)\n"
     "  --iteration K         the steps of iteration K (the trace's loop value, below 0\n"
     "                        too), from the sync that opens it to the next; 0 also\n"
     "                        has what runs before the first sync\n"
     "  --from NS, --to NS    the steps from / to that simulated time\n"
     "  --max-lines N         stop narrating after N steps (default 2000)\n"
     "  --wide                every name's gloss beside it, one line a step\n"
     "  --max-time NS         stop the run at this simulated time (default 1e10: 10 s), as\n"
     "                        run does\n"},
    {"list", cli_list, "list shipped configs, protocols or generators",
     "usage: ccsim list (configs | protocols | generators)\n"
     "\n"
     "configs: the machine configs shipped with ccsim (from $CCSIM_CONFIG_DIR or\n"
     "the source tree's configs folder when ccsim runs from its build, else the\n"
     "installed one), with their machine names and descriptions.\n"
     "protocols: the coherence protocols built in.\n"
     "generators: the built-in algorithm generators with their parameters.\n"},
    {"config", cli_config, "check a machine config and print what it describes",
     "usage: ccsim config -c CONFIG [--set GROUP.KEY=VALUE ...]\n"
     "\n"
     "Loads CONFIG (a path, or the name of a shipped config such as knc-5110p),\n"
     "checks every key against the schema, and prints every setting with its\n"
     "unit and meaning. Errors are reported as FILE:LINE: message (exit 2).\n"
     "\n"
     "  -c, --config CONFIG   the machine config\n"
     "  -s, --set G.K=V       override one setting (repeatable), e.g. --set l1.size_kb=1\n"},
    {"protocol", cli_protocol, "print a protocol's tables (Markdown, or a Murphi model)",
     "usage: ccsim protocol NAME [--murphi [--caches N] [--lines L] [--values V] [--retry]\n"
     "                                     [--queue N]]\n"
     "\n"
     "Prints the tables the simulator runs for NAME (msi, mesi, mesif, mesif-llc, moesi,\n"
     "gols; scc has no tables, only its description) as\n"
     "Markdown: one table per controller (row number, state, event, actions, next\n"
     "state), with a legend of the states, events and actions. `ccsim list protocols`\n"
     "lists the names.\n"
     "\n"
     "  --murphi      print instead a Murphi model of the same tables (for Rumur;\n"
     "                `ccsim verify` checks it): every (state, event) cell runs its\n"
     "                row, every action is its catalogue's Murphi procedure\n"
     "  --caches N    caches in the model, 2 to 8 (default 3)\n"
     "  --lines L     lines in the model (default 1)\n"
     "  --values V    data values a copy may hold, as ages of the last write\n"
     "                (default 2: the last write and an older one, which is exact)\n"
     "  --retry       home.retry_cycles > 0: a request for a busy line is refused and\n"
     "                comes back through the home's input (default: it waits in the\n"
     "                line's queue)\n"
     "  --queue N     every message channel holds N messages (default: the bounds the\n"
     "                protocols need at the default size)\n"},
    {"verify", cli_verify, "model-check a protocol's tables (Rumur)",
     "usage: ccsim verify NAME [--caches N] [--lines L] [--values V] [--broadcast]\n"
     "                    [--owned-write-writeback] [--retry] [--mutant K | --mutants]\n"
     "                    [--queue N] [--keep DIR]\n"
     "\n"
     "Writes the Murphi model of NAME's tables (ccsim protocol NAME --murphi), turns\n"
     "it into a verifier with rumur, compiles it with $CC (else clang where it is\n"
     "installed, else cc), runs it and prints\n"
     "the states explored, the time and the verdict. Checked in every reachable\n"
     "state: single writer or many readers; every readable copy holds the last\n"
     "write; memory holds it when no cache holds the line dirty; at most one F and\n"
     "one O copy; on a quiet line the directory agrees with the caches; every\n"
     "(state, event) that happens has a row; no deadlock. The network delivers\n"
     "messages in any order; replacements happen at any time. On a violation it\n"
     "prints the counterexample as the table rows that ran, in order, per core and\n"
     "home, and exits 1.\n"
     "\n"
     "  --caches N, --lines L, --values V   the model's size (default 3, 1, 2)\n"
     "  --broadcast              home.probe_filter = false: every request probes\n"
     "                           (not gols, mesif-llc: their configs refuse it)\n"
     "  --owned-write-writeback  home.owned_write_writeback = true (MOESI)\n"
     "  --retry                  home.retry_cycles > 0: a request for a busy line is\n"
     "                           refused and comes back through the home's input,\n"
     "                           any later step may take it (default: the line's queue)\n"
     "  --mutants                list the single-row mutations of NAME's tables\n"
     "  --mutant K               verify mutation K instead of the tables as built\n"
     "  --queue N                every message channel holds N messages (default: the\n"
     "                           bounds the protocols need at the default size; a\n"
     "                           channel past its bound stops the check, undecided)\n"
     "  --keep DIR               keep the model, the verifier and its output in DIR\n"
     "\n"
     "Exit status: 0 every property holds; 1 a violation (the counterexample\n"
     "printed); 2 bad input, or rumur or cc missing or failing; 3 undecided: a\n"
     "message channel outgrew its bound before every state was explored (the\n"
     "steps that filled it printed).\n"},
    {"litmus", cli_litmus, "run herdtools7 x86 litmus tests: outcomes and verdict",
     "usage: ccsim litmus FILE.litmus ... [-c CONFIG] [--runs N] [--skew NS] [--expect Ok|No]\n"
     "                    [--print-trace] [--set G.K=V ...]\n"
     "\n"
     "Reads each x86 litmus test (herdtools7's format: X86 NAME, the init block,\n"
     "the P0 | P1 ; columns of MOV, MFENCE, XCHG and LOCK'd XADD/ADD/INC/DEC/CMPXCHG,\n"
     "and an exists / ~exists / forall condition; docs/litmus.md), translates it into\n"
     "a version-2 trace and runs it N times with seeds 1..N: every thread starts\n"
     "after a random skew and simultaneous arrivals go in a random order. Prints\n"
     "the outcome histogram (* marks outcomes where the condition's proposition\n"
     "holds), Ok or No as herd does, and the runs that satisfied it. ccsim's cores\n"
     "are in order with no store buffer, so it is sequentially consistent: the\n"
     "relaxed outcomes x86-TSO allows (SB, R) never appear.\n"
     "\n"
     "  -c, --config CONFIG   a coherent machine (default teach-xbar)\n"
     "  -n, --runs N          runs per test (default 100)\n"
     "  --skew NS             largest start skew of a thread (default 500 ns)\n"
     "  --expect Ok|No        the verdict each test must give (default: the file's\n"
     "                        `(* ccsim-expect: Ok *)` comment, if any)\n"
     "  --print-trace         print the trace each test becomes\n"
     "  -s, --set G.K=V       override one config setting (repeatable)\n"
     "\n"
     "Exit status: 0 every verdict as expected; 1 a test's expected verdict not met,\n"
     "or a run failed a check; 2 bad input (FILE:LINE: message), or a config whose\n"
     "memory system is not coherent (the SCC).\n"},
    {"stress", cli_stress, "random tester: every protocol, every value checked",
     "usage: ccsim stress -c CONFIG [--ops N] [--seed S] [--lines L] [--jitter-ns NS] [--mlp N]\n"
     "                    [--keep-caches] [--set G.K=V ...]\n"
     "\n"
     "Every core issues random loads, stores, exchanges, atomic adds, whole-line\n"
     "loads and adds and flushes on L lines, with tiny caches (2 sets x 2 ways,\n"
     "to force evictions) and random extra message delays (to force races). The\n"
     "invariant checker checks every access; the atomic counters are checked at\n"
     "the end; a deadlock is reported with who waits. On the SCC (no coherence)\n"
     "one agent a core checks its private memory, MPB lines of one writer each\n"
     "and a test-and-set lock, with no jitter.\n"
     "Prints ops done, checks made, violations (must be 0), and which rows of the\n"
     "protocol's tables ran (some cannot on a given machine: a probe row where no\n"
     "home probes). Exit 1 on any failure.\n"
     "\n"
     "  -c, --config CONFIG   the machine (a path or a shipped name)\n"
     "  --ops N               operations in all (default 100000)\n"
     "  --seed S              random seed (default 1)\n"
     "  --lines L             lines shared by all cores (default 8, or one a core on\n"
     "                        a coherent machine of more than 8 cores)\n"
     "  --jitter-ns NS        largest random extra delay of a message (default 20;\n"
     "                        coherent machines)\n"
     "  --keep-caches         use the config's caches instead of tiny ones\n"
     "  --mlp N               requests each core keeps in flight (default 3; coherent\n"
     "                        machines)\n"
     "  -s, --set G.K=V       override one config setting (repeatable)\n"},
    {"sweep", cli_sweep, "run every point of a sweep file, one CSV row each",
     "usage: ccsim sweep SWEEPFILE [-j JOBS] [-o CSV] [--resume] [--mpi]\n"
     "\n"
     "Runs the cross product configs x workloads x threads x seeds of SWEEPFILE\n"
     "(libconfig, docs/sweep.md), each point in its own process, JOBS at a time:\n"
     "\n"
     "  sweep = { configs = [\"teach-xbar\", \"teach-xbar --set xbar.latency_ns=20\"];\n"
     "            workloads = [\"barrier-dissemination:m=1..4\", \"my.trace\"];\n"
     "            threads = [2, 4]; iterations = 100; seeds = [1, 2]; };\n"
     "\n"
     "An optional max_time_ns (default 1e10: 10 s) is every point's simulated-time\n"
     "limit. A config may carry --set overrides of its own. A workload is a generator\n"
     "spec or a trace file (one point per config and seed: its threads and loops\n"
     "are its own). A parameter value A..B expands to one workload per integer. A point the\n"
     "generator refuses is skipped (its message once on stderr). One CSV row per\n"
     "point, appended whole as it ends; at the end the CSV is rewritten in point\n"
     "order, so the rows do not depend on -j (but for wall_s).\n"
     "\n"
     "  -j, --jobs JOBS   points at a time (default: the online CPUs)\n"
     "  -o, --output CSV  the CSV file (default: stdout, at the end)\n"
     "  --resume          keep the rows CSV has, run only the missing points\n"
     "  --mpi             use MPI even when not started by mpirun\n"
     "\n"
     "Under `mpirun -n N` the ranks share the points and rank 0 writes the rows a\n"
     "local run writes (docs/cluster.md).\n"
     "\n"
     "Exit status: 0 every point ran; 1 a point failed a check (value error,\n"
     "coherence violation, deadlock, not finished at the 10 s simulated-time\n"
     "limit); 2 bad input (FILE:LINE: message); 4 a point's run died (an\n"
     "internal error of ccsim, a signal).\n"},
    {"tune", cli_tune, "find a generator's best parameter on a machine by simulation",
     "usage: ccsim tune -c CONFIG -w GENERATOR -t THREADS [-i ITERS] [--seed S] [--set G.K=V]\n"
     "                  [--json FILE] [--max-time NS]\n"
     "\n"
     "Runs every candidate of the generator's search space (in this process) and\n"
     "prints each one's median latency, then the best, the worst and the untuned\n"
     "default. Spaces: barrier-dissemination/-pairwise/-socketroot m=1..7;\n"
     "barrier-multim m=auto and K/K/.. (K=1..7); bcast-tree, bcast-multiline,\n"
     "reduce-tree shape=flat,binary,binomial,kary:2..8; m2o-tree, o2m-tree k=1..8;\n"
     "m2o, o2m lines=same,diff; reduce-radix, barrier-radix radix=1..8, the powers\n"
     "of two above and threads-1 (flat); barrier-combining group=2..8. Other\n"
     "generators, or a -w that fixes the parameter (bcast-tree:shape=binary):\n"
     "nothing to tune, the workload is measured as given.\n"
     "\n"
     "  -c, --config CONFIG   the machine\n"
     "  -w, --workload GEN    the generator, with parameters of its own (GEN:k=v,...)\n"
     "  -t, --threads N       threads (required)\n"
     "  -i, --iterations K    iterations per candidate (default 100)\n"
     "  --seed S              the runs' seed (default 1)\n"
     "  -s, --set G.K=V       override one config setting (repeatable)\n"
     "  --json FILE           every candidate's latency, the best, worst and default as\n"
     "                        JSON (- for stdout)\n"
     "  --max-time NS         each candidate's run stops at this simulated time if it has\n"
     "                        not ended, and fails (default 1e10: 10 s)\n"
     "\n"
     "Exit status: 0; 1 a candidate failed a check (or did not finish); 2 bad input.\n"},
    {"bench", cli_bench, "measure the simulator's own speed",
     "usage: ccsim bench engine [--pending N] [--events N] [--seed S]\n"
     "       ccsim bench workloads [--quick] [--only NAME]\n"
     "\n"
     "engine: the hold model. N events are pending; each one fired schedules one\n"
     "more 1 to 100 cycles (of a 1 GHz clock) later. Prints the figures of the\n"
     "timed part (after a warm-up): events fired, wall_s, simulated_ns, the event\n"
     "queue's memory (kernel_memory_kb, in KiB), the last line being\n"
     "events_per_s=<number>.\n"
     "\n"
     "  --pending N   events in the queue (default 65536)\n"
     "  --events N    events to fire after warm-up, at least (it runs 1000-cycle\n"
     "                slices; events= is the count fired; default 20M)\n"
     "  --seed S      random seed (default 1)\n"
     "\n"
     "workloads: the reference runs, each in its own process, one line each:\n"
     "NAME wall_s=S events_per_s=E simulated_ns=T slowdown=W peak_rss_mb=M iterations=K\n"
     "(slowdown = wall time / simulated time; peak RSS of that run's process, in MiB;\n"
     "K the iterations it ran: fewer with --quick).\n"
     "  knc-barrier-240    knc-5110p, barrier-dissemination, 240 threads x 1000\n"
     "  snb-bcast-8k       snb-e5-2660, bcast-multiline:lines=128, 16 threads x 1000\n"
     "  mesh1024-barrier   mesh-1024, barrier-dissemination, 1024 threads x 100\n"
     "  scc-allreduce-552  SCC, 48 cores, scc-allreduce:elements=552 x 1000\n"
     "\n"
     "  --quick       at most 2 iterations per run (a smoke test)\n"
     "  --only NAME   only that reference run\n"},
    {NULL, NULL, NULL, NULL},
};

static void print_help(void)
{
    printf("ccsim %s -- a cycle-level cache-coherence simulator\n\n", sim_version());
    printf("usage: ccsim SUBCOMMAND [options]     (ccsim SUBCOMMAND --help for its options)\n\n");
    printf("subcommands:\n");
    for (const struct cli_cmd *c = cli_cmds; c->name; c++)
        printf("  %-10s %s\n", c->name, c->summary);
    printf("\nexit status: 0 success; 1 the simulated program failed a check;\n"
           "2 bad input (usage, config, trace), with FILE:LINE: message on stderr;\n"
           "3 (verify) undecided: the model's message channel outgrew its bound;\n"
           "4 ccsim itself failed (an internal error, to be reported; out of memory).\n");
}

int cli_usage_error(const char *sub, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ccsim%s%s: ", sub ? " " : "", sub ? sub : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (sub)
        fprintf(stderr, "\nTry 'ccsim %s --help'.\n", sub);
    else
        fprintf(stderr, "\nTry 'ccsim --help'.\n");
    return SIM_EXIT_INPUT;
}

bool cli_parse_u64(const char *sub, const char *opt, const char *text, uint64_t lo, uint64_t hi,
                   uint64_t *out)
{
    char *end;
    errno = 0;
    if (!text || !*text || *text == '-') {
        cli_usage_error(sub, "%s needs a whole number from %llu to %llu", opt,
                        (unsigned long long)lo, (unsigned long long)hi);
        return false;
    }
    unsigned long long v = strtoull(text, &end, 10);
    unsigned long long mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = 1000, end++;
    else if (*end == 'M')
        mul = 1000000, end++;
    else if (*end == 'G')
        mul = 1000000000, end++;
    if (errno || *end || end == text || (mul > 1 && v > UINT64_MAX / mul) || v * mul < lo ||
        v * mul > hi) {
        cli_usage_error(sub, "%s '%s' is not a whole number from %llu to %llu", opt, text,
                        (unsigned long long)lo, (unsigned long long)hi);
        return false;
    }
    *out = v * mul;
    return true;
}

bool cli_parse_ns(const char *sub, const char *opt, const char *text, sim_time_t *ps)
{
    char *end;
    errno = 0;
    /* decimal only: strtod's hexadecimal, infinities and NaN are no times */
    bool decimal = text && *text && *text != '-' && strspn(text, "0123456789.eE+-") == strlen(text);
    double v = decimal ? strtod(text, &end) : -1;
    if (v < 0 || errno || *end || !(v <= 1e15)) {
        cli_usage_error(sub, "%s '%s' is not a time in ns (a number from 0 to 1e15)", opt,
                        text ? text : "");
        return false;
    }
    *ps = (sim_time_t)(v * SIM_PS_PER_NS + 0.5);
    return true;
}

bool cli_parse_max_time(const char *sub, const char *text, sim_time_t *ps)
{
    if (!cli_parse_ns(sub, "--max-time", text, ps))
        return false;
    /* the value as given, not rounded up to the picosecond it is under */
    bool some = strtod(text, NULL) * SIM_PS_PER_NS >= 1;
    if (!some)
        cli_usage_error(
            sub,
            "--max-time '%s': a run needs some simulated time (at least 0.001 ns, a picosecond)",
            text);
    return some;
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return true;
    return false;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void cli_json_config(FILE *f, const char *path, const char *const *sets, size_t nsets)
{
    fprintf(f, "\"config\": ");
    cli_json_string(f, path);
    fprintf(f, ", \"sets\": [");
    for (size_t i = 0; i < nsets; i++) {
        fprintf(f, "%s", i ? ", " : "");
        cli_json_string(f, sets[i]);
    }
    fprintf(f, "]");
}

bool cli_on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        return false;
    char buf[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        int len = snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", prog);
        if (len > 0 && (size_t)len < sizeof buf && access(buf, X_OK) == 0)
            return true;
        p += n;
        if (*p == ':')
            p++;
    }
    return false;
}

void cli_path_folder(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(buf, size, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 1,
             slash ? path : ".");
}

/* The file writing path makes or writes: path itself, or where a chain
 * of symbolic links to a file not yet made ends (at most 40 links, as
 * SYMLOOP_MAX); false with why for a loop or a longer chain. */
bool cli_written_file(const char *path, char *buf, size_t size, const char **why)
{
    snprintf(buf, size, "%s", path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(buf, &st) != 0 || !S_ISLNK(st.st_mode) || stat(buf, &st) == 0)
            return true;       /* no link, or one to a file there: written as it is */
        if (errno != ENOENT) { /* a loop (ELOOP), a file where a folder should be, ... */
            *why = strerror(errno);
            return false;
        }
        char to[2048], dir[4096];
        ssize_t n = readlink(buf, to, sizeof to - 1);
        if (n <= 0)
            return true;
        to[n] = '\0';
        cli_path_folder(buf, dir, sizeof dir);
        if (strlen(dir) + 1 + strlen(to) >= size || (size_t)n >= sizeof to - 1) {
            *why = strerror(ENAMETOOLONG); /* not cut short: it would name another file */
            return false;
        }
        if (to[0] == '/' || !strchr(buf, '/'))
            snprintf(buf, size, "%s", to);
        else
            snprintf(buf, size, "%s/%s", dir, to);
    }
    *why = strerror(ELOOP);
    return false;
}

/* Why the file at `at` cannot be written (NULL if it can). */
static const char *unwritable(const char *at)
{
    char dir[4096];
    cli_path_folder(at, dir, sizeof dir);
    struct stat st;
    if (!*at)
        return "no file name";
    if (stat(dir, &st) != 0)
        return "its folder does not exist";
    if (!S_ISDIR(st.st_mode))
        return "its folder is not a directory";
    if (access(dir, W_OK | X_OK) != 0)
        return "its folder is not writable";
    if (stat(at, &st) == 0)
        return S_ISDIR(st.st_mode)     ? "it is a directory"
               : access(at, W_OK) != 0 ? "the file is not writable"
                                       : NULL;
    int fd =
        open(at, O_WRONLY | O_CREAT | O_EXCL, 0644); /* can it be made? (/proc says no only then) */
    if (fd < 0)
        return strerror(errno);
    close(fd);
    unlink(at);
    return NULL;
}

bool cli_check_output(const char *sub, const char *opt, const char *path)
{
    if (strcmp(path, "-") == 0 && strcmp(opt, "--json") == 0)
        return true;
    char at[4096];
    const char *why = NULL;
    if (cli_written_file(path, at, sizeof at, &why))
        why = unwritable(at);
    if (!why)
        return true;
    if (strcmp(at, path) != 0) /* a link's file */
        fprintf(stderr, "ccsim %s: %s %s (a link to %s): cannot write there: %s\n", sub, opt, path,
                at, why);
    else
        fprintf(stderr, "ccsim %s: %s %s: cannot write there: %s\n", sub, opt, path, why);
    return false;
}

static int json_fd = -1; /* the real stdout while --json - holds it */

bool cli_json_stdout(const char *sub)
{
    fflush(stdout);
    json_fd = dup(STDOUT_FILENO);
    if (json_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) { /* stdout closed (>&-) */
        fprintf(stderr, "ccsim %s: --json -: cannot write to standard output: %s\n", sub,
                strerror(errno));
        return false;
    }
    return true;
}

FILE *cli_json_open(const char *path)
{
    FILE *f = strcmp(path, "-") == 0 && json_fd >= 0 ? fdopen(json_fd, "w") : fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write the JSON result: %s\n", path, strerror(errno));
    return f;
}

bool cli_json_close(FILE *f, const char *path)
{
    fflush(stdout);
    bool ok = !ferror(f);
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "%s: cannot write the JSON result: %s\n", path, strerror(errno));
    if (strcmp(path, "-") == 0)
        json_fd = -1;
    return ok;
}

/* The subcommands' names, for suggestions. */
static void unknown_subcommand(const char *sub)
{
    const char *names[64];
    size_t n = 0;
    for (const struct cli_cmd *c = cli_cmds; c->name && n < SIM_COUNT_OF(names); c++)
        names[n++] = c->name;
    char hint[512] = "";
    sim_suggest(hint, sizeof hint, sub, strlen(sub), names, n, NULL);
    fprintf(stderr, "ccsim: unknown subcommand '%s'%s\nTry 'ccsim --help'.\n", sub, hint);
}

/* What a subcommand printed must have been written: a full disk or a
 * closed stream is an error (exit 2), not a silent success. */
static int output_written(const char *sub, int status)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return status;
    fprintf(stderr, "ccsim %s: cannot write the output: %s\n", sub, strerror(errno));
    return status == SIM_EXIT_OK ? SIM_EXIT_INPUT : status;
}

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        print_help();
        return SIM_EXIT_INPUT;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0 || strcmp(sub, "help") == 0) {
        print_help();
        return output_written("--help", SIM_EXIT_OK);
    }
    if (strcmp(sub, "-V") == 0 || strcmp(sub, "--version") == 0) {
        printf("ccsim %s\n", sim_version());
        return output_written("--version", SIM_EXIT_OK);
    }
    for (const struct cli_cmd *c = cli_cmds; c->name; c++) {
        if (strcmp(c->name, sub) != 0)
            continue;
        if (cli_wants_help(argc - 1, argv + 1)) {
            fputs(c->usage, stdout);
            return output_written(sub, SIM_EXIT_OK);
        }
        return output_written(sub, c->run(argc - 1, argv + 1));
    }
    unknown_subcommand(sub);
    return SIM_EXIT_INPUT;
}
