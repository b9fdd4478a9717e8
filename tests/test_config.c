/*
 * test_config.c -- config loading: every kind of mistake gives FILE:LINE and
 * says what is expected; good files, @include and --set work.
 */
#include "machine.h"
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A valid machine; tests replace parts of it. */
#define GOOD_MACHINE                                                                               \
    "machine = {\n"                                                                                \
    "  name = \"tiny\";\n"                                                                         \
    "  protocol = \"mesi\";\n"                                                                     \
    "  topology = \"xbar\";\n"                                                                     \
    "  cores = 4;\n"                                                                               \
    "  clock_ghz = 2.0;\n"                                                                         \
    "  line_bytes = 64;\n"                                                                         \
    "};\n"
#define GOOD_L1     "l1 = { size_kb = 32; ways = 8; latency_cycles = 4; };\n"
#define GOOD_MEMORY "memory = { latency_ns = 80.0; };\nxbar = { latency_ns = 10.0; };\n"

static struct sim_diag diag;
static struct machine_cfg mcfg;

/* Loads text as NAME; returns whether it loaded. */
static bool load(const char *name, const char *text)
{
    const char *path = tu_write(name, text);
    sim_diag_init(&diag);
    return machine_load(&mcfg, path, NULL, 0, &diag);
}

/* The diagnostics hold "NAME:LINE: " followed somewhere by `what`. */
static void expect_error(const char *name, int line, const char *what)
{
    char prefix[900];
    snprintf(prefix, sizeof prefix, "%.400s/%.400s:%d: ", tu_dir(), name, line);
    tu_expect_diag(&diag, prefix, what);
}

START_TEST(test_good)
{
    ck_assert_msg(load("good.cfg", GOOD_MACHINE GOOD_L1 GOOD_MEMORY), "%s", diag.text);
    ck_assert_int_eq(diag.count, 0);
    ck_assert_str_eq(mcfg.machine.name, "tiny");
    ck_assert_int_eq(mcfg.machine.cores, 4);
    ck_assert_int_eq(mcfg.machine.threads_per_core, 1); /* default */
    ck_assert_int_eq(mcfg.core.mshrs, 10);              /* default */
    ck_assert(mcfg.machine.clock_ghz == 2.0);
    ck_assert_int_eq(mcfg.l1.ways, 8);
    ck_assert_int_eq(mcfg.l2.size_kb, 0); /* no l2 */
}
END_TEST

START_TEST(test_integer_accepted_for_float)
{
    ck_assert_msg(load("intfloat.cfg",
                       "machine = { name = \"t\"; protocol = \"mesi\"; topology = \"xbar\";\n"
                       "  cores = 2; clock_ghz = 2; line_bytes = 64; };\n" GOOD_L1 GOOD_MEMORY),
                  "%s", diag.text);
    ck_assert(mcfg.machine.clock_ghz == 2.0);
}
END_TEST

START_TEST(test_syntax_error)
{
    ck_assert(!load("syntax.cfg", GOOD_MACHINE "l1 = { size_kb = 32; ways = ; };\n"));
    expect_error("syntax.cfg", 9, "syntax error");
    /* libconfig refuses an array of integers and decimals: say how to write it */
    ck_assert(!load("mixed.cfg", GOOD_MACHINE "model = { table4_EE = [1521, 76.0, 1096.0]; };\n"));
    expect_error("mixed.cfg", 9,
                 "mismatched element type in array (an array's numbers are all of one kind: all "
                 "decimals (write 3.0, not 3), or all integers, and with an L on each (1L, "
                 "4294967296L) if one needs it)");
}
END_TEST

START_TEST(test_unknown_section)
{
    ck_assert(!load("unksec.cfg", GOOD_MACHINE GOOD_L1 GOOD_MEMORY "\nmemmory = { x = 1; };\n"));
    expect_error("unksec.cfg", 13, "unknown section 'memmory' (did you mean 'memory'?)");
}
END_TEST

START_TEST(test_unknown_key)
{
    ck_assert(!load("unkkey.cfg", GOOD_MACHINE "l1 = { size_kb = 32; way = 8; latency_cycles = 4; "
                                               "};\n" GOOD_MEMORY));
    expect_error("unkkey.cfg", 9, "unknown key 'way' in section 'l1' (did you mean 'ways'?)");
    /* the misspelt key also leaves the required one missing */
    expect_error("unkkey.cfg", 9, "lacks the required key 'ways'");
}
END_TEST

START_TEST(test_unknown_key_far_from_any)
{
    ck_assert(!load("unkfar.cfg", GOOD_MACHINE GOOD_L1 "memory = { latency_ns = 80.0; "
                                                       "zzzzzzzz = 1; };\n"));
    expect_error("unkfar.cfg", 10, "unknown key 'zzzzzzzz' in section 'memory' (known:");
}
END_TEST

START_TEST(test_wrong_type)
{
    ck_assert(!load("type.cfg", GOOD_MACHINE "l1 = { size_kb = \"32\"; ways = 8; latency_cycles = "
                                             "4; };\n" GOOD_MEMORY));
    expect_error("type.cfg", 9, "l1.size_kb is a string (expected an integer from 1 to 1048576)");
}
END_TEST

START_TEST(test_float_for_integer)
{
    ck_assert(!load("fint.cfg", GOOD_MACHINE "l1 = { size_kb = 32.5; ways = 8; latency_cycles = "
                                             "4; };\n" GOOD_MEMORY));
    expect_error("fint.cfg", 9, "l1.size_kb is a number with a decimal point (expected an integer");
}
END_TEST

START_TEST(test_out_of_range)
{
    ck_assert(!load("range.cfg", GOOD_MACHINE "l1 = { size_kb = 32; ways = 0; latency_cycles = "
                                              "4; };\n" GOOD_MEMORY));
    expect_error("range.cfg", 9, "l1.ways = 0 is out of range (expected an integer from 1 to 64)");
}
END_TEST

START_TEST(test_float_out_of_range)
{
    ck_assert(!load("frange.cfg",
                    "machine = { name = \"t\"; protocol = \"mesi\"; topology = \"xbar\";\n"
                    "  cores = 2;\n  clock_ghz = 99.5; line_bytes = 64; };\n" GOOD_L1 GOOD_MEMORY));
    expect_error("frange.cfg", 3,
                 "machine.clock_ghz = 99.5 is out of range (expected a number "
                 "from 0.01 to 10)");
}
END_TEST

START_TEST(test_missing_key)
{
    ck_assert(
        !load("misskey.cfg", GOOD_MACHINE "l1 = { size_kb = 32;\n ways = 8; };\n" GOOD_MEMORY));
    expect_error("misskey.cfg", 9, "section 'l1' lacks the required key 'latency_cycles'");
}
END_TEST

START_TEST(test_missing_section)
{
    ck_assert(!load("misssec.cfg", GOOD_MACHINE GOOD_L1));
    expect_error("misssec.cfg", 1, "the required section 'memory' is missing");
}
END_TEST

START_TEST(test_bad_choice)
{
    ck_assert(!load("choice.cfg",
                    "machine = { name = \"t\";\n protocol = \"mesii\"; topology = \"xbar\";\n"
                    "  cores = 2; clock_ghz = 2.0; line_bytes = 64; };\n" GOOD_L1 GOOD_MEMORY));
    expect_error("choice.cfg", 2,
                 "machine.protocol = \"mesii\" is not known (did you mean "
                 "'mesi'?)");
}
END_TEST

START_TEST(test_string_too_long)
{
    char text[2048];
    char name[200];
    memset(name, 'x', 150);
    name[150] = '\0';
    snprintf(text, sizeof text,
             "machine = { name = \"%s\"; protocol = \"mesi\"; topology = \"xbar\";\n"
             "  cores = 2; clock_ghz = 2.0; line_bytes = 64; };\n" GOOD_L1 GOOD_MEMORY,
             name);
    ck_assert(!load("long.cfg", text));
    expect_error("long.cfg", 1,
                 "machine.name is 150 characters long (expected a string of at "
                 "most 63 characters)");
}
END_TEST

START_TEST(test_section_not_group)
{
    ck_assert(!load("notgroup.cfg", GOOD_MACHINE GOOD_L1 "memory = 5;\n"));
    expect_error("notgroup.cfg", 10, "'memory' is an integer (expected a group");
}
END_TEST

START_TEST(test_semantic_checks)
{
    ck_assert(!load("sem.cfg",
                    "machine = { name = \"t\"; protocol = \"mesi\"; topology = \"xbar\";\n"
                    "  cores = 3; sockets = 2; clock_ghz = 2.0;\n"
                    "  line_bytes = 48; };\n" GOOD_L1 GOOD_MEMORY));
    expect_error("sem.cfg", 3, "machine.line_bytes = 48 is not a power of two");
    expect_error("sem.cfg", 2, "machine.cores = 3 is not a multiple of machine.sockets = 2");
    ck_assert(!load("sets.cfg", GOOD_MACHINE "l1 = { size_kb = 24; ways = 8; latency_cycles = "
                                             "4; };\n" GOOD_MEMORY));
    expect_error("sets.cfg", 9, "does not give a power-of-two number of sets");
}
END_TEST

START_TEST(test_all_errors_reported)
{
    ck_assert(!load("many.cfg", GOOD_MACHINE "l1 = { size_kb = 0; ways = 99; latency_cycles = "
                                             "4; colour = 1; };\n"
                                             "xbar = { latency_ns = 1.0; };\n"));
    ck_assert_int_eq(diag.count, 4); /* size_kb, ways, colour, memory */
}
END_TEST

START_TEST(test_duplicate_key)
{
    ck_assert(!load("dup.cfg", GOOD_MACHINE "l1 = { size_kb = 32;\n size_kb = 64; ways = 8; "
                                            "latency_cycles = 4; };\n" GOOD_MEMORY));
    ck_assert_int_eq(diag.count, 1);
    ck_assert_msg(strstr(diag.text, "dup.cfg:10: ") != NULL, "%s", diag.text);
}
END_TEST

START_TEST(test_missing_file)
{
    sim_diag_init(&diag);
    ck_assert(!machine_load(&mcfg, "/nonexistent/ccsim.cfg", NULL, 0, &diag));
    ck_assert_msg(strstr(diag.text, "/nonexistent/ccsim.cfg: cannot open config") != NULL, "%s",
                  diag.text);
    /* an endless device is refused, not read */
    sim_diag_init(&diag);
    ck_assert(!machine_load(&mcfg, "/dev/zero", NULL, 0, &diag));
    ck_assert_msg(strstr(diag.text, "/dev/zero: cannot read config: not a regular file") != NULL,
                  "%s", diag.text);
}
END_TEST

START_TEST(test_include)
{
    tu_write("parts.cfg", GOOD_L1 GOOD_MEMORY);
    ck_assert_msg(load("inc.cfg", GOOD_MACHINE "@include \"parts.cfg\"\n"), "%s", diag.text);
    ck_assert_int_eq(mcfg.l1.size_kb, 32);
    /* an error inside an included file names that file and its line */
    tu_write("badpart.cfg", "l1 = { size_kb = 32; ways = 8; latency_cycles = 4; };\n"
                            "memory = { latency_ns = -1.0; };\n");
    ck_assert(!load("incbad.cfg", GOOD_MACHINE "@include \"badpart.cfg\"\n"));
    expect_error("badpart.cfg", 2, "memory.latency_ns = -1 is out of range");
    ck_assert(!load("incmiss.cfg", GOOD_MACHINE "@include \"nothere.cfg\"\n"));
    ck_assert_msg(strstr(diag.text, "incmiss.cfg:9: ") != NULL, "%s", diag.text);
}
END_TEST

/* A config builds on another: its own settings override the included
 * ones key by key (a later setting wins), wherever the @include line is. */
START_TEST(test_include_override)
{
    tu_write("base.cfg", GOOD_MACHINE GOOD_L1 GOOD_MEMORY);
    ck_assert_msg(load("derived.cfg", "@include \"base.cfg\"\n"
                                      "machine = { name = \"derived\"; cores = 8; };\n"
                                      "xbar = { latency_ns = 25.0; };\n"),
                  "%s", diag.text);
    ck_assert_str_eq(mcfg.machine.name, "derived");
    ck_assert_int_eq(mcfg.machine.cores, 8);
    ck_assert_str_eq(mcfg.machine.protocol, "mesi"); /* kept from the base */
    ck_assert_int_eq(mcfg.l1.size_kb, 32);
    /* the include after the settings: the file's own settings still win */
    ck_assert_msg(load("after.cfg", "machine = { cores = 2; };\n@include \"base.cfg\"\n"), "%s",
                  diag.text);
    ck_assert_int_eq(mcfg.machine.cores, 2);
    /* an error in an override names the overriding file and line */
    ck_assert(!load("badover.cfg", "@include \"base.cfg\"\nl1 = { ways = 0; };\n"));
    expect_error("badover.cfg", 2, "l1.ways = 0 is out of range");
    /* an absolute path works */
    char text[1200];
    snprintf(text, sizeof text, "@include \"%s/base.cfg\"\nmachine = { name = \"abs\"; };\n",
             tu_dir());
    ck_assert_msg(load("abs.cfg", text), "%s", diag.text);
    ck_assert_str_eq(mcfg.machine.name, "abs");
}
END_TEST

/* A missing include names the file it looked for; a cycle is refused. */
START_TEST(test_include_errors)
{
    ck_assert(!load("incmiss2.cfg", GOOD_MACHINE "@include \"nothere.cfg\"\n"));
    char want[800];
    snprintf(want, sizeof want,
             "incmiss2.cfg:9: @include \"nothere.cfg\": cannot open %s/nothere.cfg: ", tu_dir());
    ck_assert_msg(strstr(diag.text, want) != NULL, "%s", diag.text);
    ck_assert(!load("self.cfg", "@include \"self.cfg\"\n"));
    ck_assert_msg(strstr(diag.text, "@include \"self.cfg\": a cycle"), "%s", diag.text);
    /* the same file by another name is the same file (fuzz_config found a
     * top file that named itself with a '//': it was read 16 deep) */
    ck_assert(!load("self2.cfg", "@include \"./self2.cfg\"\n"));
    ck_assert_msg(strstr(diag.text, "self2.cfg:1: @include \"./self2.cfg\": a cycle"), "%s",
                  diag.text);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/sub", tu_dir());
    mkdir(sub, 0700);
    ck_assert(!load("incdir.cfg", GOOD_MACHINE "@include \"sub\"\n"));
    ck_assert_msg(strstr(diag.text, "it is a directory"), "%s", diag.text);
    /* a name is never a format: "%n" in it crashed the message (fuzz_sweep) */
    ck_assert(!load("pct.cfg", "@include \"a%n%n%s\"\n"));
    ck_assert_msg(strstr(diag.text, "pct.cfg:1: @include \"a%n%n%s\": cannot open ") &&
                      strstr(diag.text, "/a%n%n%s: "),
                  "%s", diag.text);
    /* a NUL byte, here in an @include's name (libconfig read the name as ""
     * and, the config's directory being a directory, its scanner ended the
     * process with "input in flex scanner failed"; found by fuzz_config) */
    struct tu_run r;
    tu_config_refused(&r, "-c " CCSIM_TEST_DIR "/fuzz/regressions/config/include-nul-name.cfg",
                      "include-nul-name.cfg:3: a NUL byte: a config is text", NULL);
    /* the same end from an @include inside a group, which libconfig opens
     * itself (found by fuzz_sweep): checked first, at its line; one that
     * names a file still works */
    tu_write("named.cfg", "name = \"from-include\";\n");
    char text[1200];
    snprintf(text, sizeof text, "@include \"%s/teach-xbar.cfg\"\nmachine = {\n@include \"\"\n};\n",
             CCSIM_CONFIGS);
    const char *empty = tu_write("ingroup.cfg", text);
    char args[900];
    snprintf(args, sizeof args, "-c %s", empty);
    snprintf(want, sizeof want, "%s:3: @include \"\": cannot read ", empty);
    tu_config_refused(&r, args, want, "it is a directory");
    snprintf(text, sizeof text,
             "@include \"%s/teach-xbar.cfg\"\nmachine = {\n@include \"named.cfg\"\n};\n",
             CCSIM_CONFIGS);
    tu_ccsim(&r, "config -c %s", tu_write("ingroup2.cfg", text));
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"from-include\""), "%s%s", r.out, r.err);
}
END_TEST

static struct tu_run run;

/* `ccsim config` refuses what `run` refuses, with FILE:LINE or --set. */
START_TEST(test_config_refuses_what_run_refuses)
{
    const char *sets[] = {"qpi.stops_per_socket=4", "qpi.qpi_stop=99"};
    const char *msgs[] = {"--set: qpi.stops_per_socket = 4: a socket's ring needs a stop for each "
                          "of its 8 caches",
                          "--set: qpi.qpi_stop = 99: a socket's ring has stops 0 to 8"};
    for (int i = 0; i < 2; i++) {
        tu_ccsim(&run, "config -c snb-e5-2660 --set %s", sets[i]);
        ck_assert_int_eq(run.status, 2);
        ck_assert_msg(strstr(run.err, msgs[i]), "%s", run.err);
    }
    char text[1200];
    snprintf(text, sizeof text, "@include \"%s/snb-e5-2660.cfg\"\nqpi = {\n  qpi_stop = 99;\n};\n",
             CCSIM_CONFIGS);
    const char *path = tu_write("qpi99.cfg", text);
    tu_ccsim(&run, "config -c %s", path);
    ck_assert_int_eq(run.status, 2);
    char want[800];
    snprintf(want, sizeof want, "%s:3: qpi.qpi_stop = 99", path);
    ck_assert_msg(strstr(run.err, want), "%s", run.err);
    /* an L2 smaller than the L1 */
    tu_config_refused(&run,
                      "-c teach-xbar --set l2.size_kb=16 --set l2.ways=4 --set l2.latency_cycles=9",
                      "l2.size_kb = 16 KiB is smaller than l1.size_kb = 32 KiB", NULL);
    /* a section of another topology says whose it is */
    tu_config_refused(&run, "-c teach-xbar --set ring.stops=4",
                      "section 'ring' applies to the ring topology only (this machine's topology "
                      "is xbar)",
                      NULL);
    ck_assert_msg(!strstr(run.err, "did you mean"), "%s", run.err);
}
END_TEST

/* -c names a directory or a near miss; --set takes a bare word for a string. */
START_TEST(test_config_names_and_words)
{
    tu_ccsim(&run, "config -c %s", CCSIM_CONFIGS);
    ck_assert_int_eq(run.status, 2);
    ck_assert_msg(strstr(run.err, "is a directory, not a config file"), "%s", run.err);
    tu_config_refused(&run, "-c knc-5100p", "(did you mean 'knc-5110p'?)", NULL);
    tu_ccsim(&run, "config -c teach-xbar --set machine.protocol=moesi");
    ck_assert_msg(run.status == 0 && strstr(run.out, "\"moesi\""), "%s", run.err);
    tu_config_refused(&run, "-c teach-xbar --set l1.ways=eight", "l1.ways is a string", NULL);
}
END_TEST

/* `ccsim config` marks defaults and leaves out what the machine does not use. */
START_TEST(test_config_marks_defaults)
{
    tu_ccsim(&run, "config -c teach-xbar");
    ck_assert_msg(run.status == 0, "%s", run.err);
    ck_assert_msg(strstr(run.out, "  sockets            1               # (default) "), "%s",
                  run.out);
    ck_assert(strstr(run.out, "  cores              4               # cores") != NULL);
    ck_assert(strstr(run.out, "\nmodel:") == NULL && strstr(run.out, "\nl2:") == NULL);
    ck_assert(strstr(run.out, "owned_write_writeback") == NULL);
    /* memory bandwidth: the coherent runtime's controllers use it; unlimited by default */
    ck_assert_msg(strstr(run.out, "  bandwidth_gbs      0 GB/s          # (default) "), "%.2000s",
                  run.out);
    tu_ccsim(&run, "config -c snb-e5-2660");
    ck_assert_msg(!strstr(run.out, "not used by this machine"), "%.3000s", run.out);
    ck_assert(strstr(run.out, "\nmodel:") != NULL);
    /* a key the file gives that this machine does not use is marked so */
    const char *given = tu_write("unused.cfg", "@include \"" CCSIM_CONFIGS "/snb-e5-2660.cfg\"\n"
                                               "home = { probe_per_socket = false; };\n");
    tu_ccsim(&run, "config -c %s", given);
    ck_assert_msg(strstr(run.out, "(given; not used by this machine)"), "%.3000s", run.out);
    tu_ccsim(&run, "config -c scc");
    ck_assert(strstr(run.out, "probe_filter") == NULL && strstr(run.out, "lookup_cycles") == NULL);
    ck_assert(strstr(run.out, "prefetch_") == NULL && strstr(run.out, "banks") == NULL);
    /* an override is marked; a key the machine does not use is marked so */
    tu_ccsim(&run, "config -c snb-e5-2660 --set core.mshrs=4 --set l1.prefetch_depth=16");
    ck_assert_msg(run.status == 0, "%s", run.err);
    ck_assert_msg(strstr(run.out, "  mshrs                4               # (--set) "), "%s",
                  run.out);
    ck_assert_msg(strstr(run.out, "16 lines        # (--set; not used by this machine)"), "%s",
                  run.out);
    tu_ccsim(&run, "config -c teach-xbar");
    ck_assert(strstr(run.out, "remote_early_read") == NULL); /* one socket */
    /* only GOLS's and mesif-llc's homes share a fill: it was shown as used on MESIF */
    tu_ccsim(&run, "config -c knl-7290 --set memory.fill_conflict_ns=5000");
    ck_assert_msg(strstr(run.out, "5000 ns         # (--set; not used by this machine)"), "%s",
                  run.out);
    tu_ccsim(&run, "config -c knc-5110p --set memory.fill_conflict_ns=5000");
    ck_assert_msg(strstr(run.out, "5000 ns         # (--set) a read of a line"), "%s", run.out);
}
END_TEST

/* An unknown protocol or topology is its own error alone (the sections of
 * the one meant were "unknown" too), its names listed once; a relation of
 * keys is blamed on the one a --set changed. */
START_TEST(test_errors_name_their_cause)
{
    tu_config_refused(&run, "-c scc --set machine.protocol=foo",
                      "--set: machine.protocol = \"foo\" is not known (expected one of \"msi\", "
                      "\"mesi\"",
                      NULL);
    ck_assert_msg(!strstr(run.err, "known:") && !strstr(run.err, "unknown section"), "%s", run.err);
    tu_config_refused(&run, "-c snb-e5-2660 --set machine.topology=foo",
                      "machine.topology = \"foo\" is not known", NULL);
    ck_assert_msg(!strstr(run.err, "unknown section"), "%s", run.err);
    tu_config_refused(&run, "-c niagara2 --set l2.bank_busy_cycles=0",
                      "--set: l2.banks = 8 without l2.bank_busy_cycles", NULL);
    tu_ccsim(&run, "config -c snb-e5-2660 --set home.llc_kb=1 --set home.llc_ways=32");
    ck_assert_msg(strstr(run.err, "--set: home.llc_kb = 1 is not a whole number of sets of "
                                  "home.llc_ways = 32 lines of 64 bytes"),
                  "%s", run.err);
    /* no LLC (llc_cycles 0): its keys are not used, nor checked */
    tu_ccsim(&run, "config -c teach-xbar --set home.llc_kb=1 --set home.llc_ways=3");
    ck_assert_msg(run.status == 0, "%s", run.err);
    tu_ccsim(&run, "config -c teach-xbar --set home.llc_kb=64");
    ck_assert_msg(strstr(run.out, "64 KiB          # (--set; not used by this machine)"), "%s",
                  run.out);
    tu_ccsim(&run, "config -c snb-e5-2660 --set machine.cores=32");
    ck_assert_msg(strstr(run.err, "--set: qpi.stops_per_socket = 9: a socket's ring needs a stop "
                                  "for each of its 16 caches (machine.cores"),
                  "%s", run.err);
}
END_TEST

/* A topology key left out prints what the layout makes of it (it printed
 * 0 stops, and -1 for the QPI agent's stop). */
START_TEST(test_config_prints_resolved_defaults)
{
    const char *ring = tu_write("ring-nostops.cfg", GOOD_MACHINE GOOD_L1
                                "memory = { latency_ns = 80.0; };\n"
                                "ring = { clock_ghz = 1.0; hop_cycles = 1; link_bytes = 32; };\n");
    tu_ccsim(&run, "config -c %s --set machine.topology=ring --set machine.cores=6", ring);
    ck_assert_msg(run.status == 0, "%s", run.err);
    ck_assert_msg(strstr(run.out, "  stops              6               # (default) "), "%s",
                  run.out);
    tu_ccsim(&run, "config -c snb-e5-2660");
    ck_assert_msg(strstr(run.out, "  qpi_stop           8               # (default) "), "%s",
                  run.out);
    tu_ccsim(&run, "config -c snb-e5-2660 --set qpi.stops_per_socket=12");
    ck_assert_msg(strstr(run.out, "  qpi_stop           11              # (default) "), "%s",
                  run.out);
}
END_TEST

START_TEST(test_set_overrides)
{
    const char *path = tu_write("set.cfg", GOOD_MACHINE GOOD_L1 GOOD_MEMORY);
    const char *sets[] = {"l1.size_kb=1", "l2.size_kb=4", "l2.ways=2", "l2.latency_cycles=10",
                          "machine.description=\"tiny caches\""};
    sim_diag_init(&diag);
    ck_assert_msg(machine_load(&mcfg, path, sets, 5, &diag), "%s", diag.text);
    ck_assert_int_eq(mcfg.l1.size_kb, 1);
    ck_assert_int_eq(mcfg.l2.ways, 2);
    ck_assert_str_eq(mcfg.machine.description, "tiny caches");

    const char *bad[] = {"l1.ways=0"};
    sim_diag_init(&diag);
    ck_assert(!machine_load(&mcfg, path, bad, 1, &diag));
    ck_assert_msg(strstr(diag.text, "--set: l1.ways = 0 is out of range") != NULL, "%s", diag.text);
    const char *malformed[] = {"l1size=4"};
    sim_diag_init(&diag);
    ck_assert(!machine_load(&mcfg, path, malformed, 1, &diag));
    ck_assert_msg(strstr(diag.text, "--set: 'l1size=4' is not of the form group.key=value"), "%s",
                  diag.text);
    const char *spaced[] = {"l1.size_kb = 4"};
    sim_diag_init(&diag);
    ck_assert(!machine_load(&mcfg, path, spaced, 1, &diag));
    ck_assert_msg(strstr(diag.text, "'size_kb ' is not a setting's name"), "%s", diag.text);
}
END_TEST

/* An error about keys together (the sets of a cache: its size, ways and the
 * line size) is put where one of them was just changed: a --set, else the
 * config file itself rather than a file it includes. */
START_TEST(test_error_of_several_keys_names_the_change)
{
    const char *path = tu_write("rel.cfg", GOOD_MACHINE GOOD_L1 GOOD_MEMORY);
    const char *ways[] = {"l1.ways=3"};
    sim_diag_init(&diag);
    ck_assert(!machine_load(&mcfg, path, ways, 1, &diag));
    ck_assert_msg(strstr(diag.text, "--set: l1: 32 KiB in 3 ways") != NULL, "%s", diag.text);
    ck_assert(!load("relinc.cfg", "@include \"rel.cfg\"\nl1 = { ways = 3; };\n"));
    expect_error("relinc.cfg", 2, "l1: 32 KiB in 3 ways");
}
END_TEST

START_TEST(test_shipped_configs_load)
{
    const char *names[] = {"snb-e5-2660", "knc-5110p", "scc", "opteron-6272"};
    for (size_t i = 0; i < SIM_COUNT_OF(names); i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.cfg", CCSIM_CONFIGS, names[i]);
        sim_diag_init(&diag);
        ck_assert_msg(machine_load(&mcfg, path, NULL, 0, &diag), "%s: %s", names[i], diag.text);
        ck_assert_str_eq(mcfg.machine.name, names[i]);
    }
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("load");
    tcase_add_test(tc, test_good);
    tcase_add_test(tc, test_integer_accepted_for_float);
    tcase_add_test(tc, test_syntax_error);
    tcase_add_test(tc, test_unknown_section);
    tcase_add_test(tc, test_unknown_key);
    tcase_add_test(tc, test_unknown_key_far_from_any);
    tcase_add_test(tc, test_wrong_type);
    tcase_add_test(tc, test_float_for_integer);
    tcase_add_test(tc, test_out_of_range);
    tcase_add_test(tc, test_float_out_of_range);
    tcase_add_test(tc, test_missing_key);
    tcase_add_test(tc, test_missing_section);
    tcase_add_test(tc, test_bad_choice);
    tcase_add_test(tc, test_string_too_long);
    tcase_add_test(tc, test_section_not_group);
    tcase_add_test(tc, test_semantic_checks);
    tcase_add_test(tc, test_all_errors_reported);
    tcase_add_test(tc, test_duplicate_key);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_include);
    tcase_add_test(tc, test_include_override);
    tcase_add_test(tc, test_include_errors);
    tcase_add_test(tc, test_config_refuses_what_run_refuses);
    tcase_add_test(tc, test_config_names_and_words);
    tcase_add_test(tc, test_config_marks_defaults);
    tcase_add_test(tc, test_config_prints_resolved_defaults);
    tcase_add_test(tc, test_errors_name_their_cause);
    tcase_add_test(tc, test_set_overrides);
    tcase_add_test(tc, test_error_of_several_keys_names_the_change);
    tcase_add_test(tc, test_shipped_configs_load);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run_suite(config_suite());
}
