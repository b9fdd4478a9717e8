/*
 * test_litmus.c -- `ccsim litmus`: every shipped test (tests/litmus) gives
 * the verdict its file expects on every coherent shipped config, and a
 * non-coherent one is refused (exit 2); across the runs every outcome
 * sequential consistency allows appears for MP and SB (the SC set
 * enumerated here from the tests' interleavings, independently of the
 * simulator); the same seeds give the same bytes; a wrong expected verdict
 * fails (exit 1); malformed files give exit 2 with FILE:LINE.
 */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LITMUS_DIR CCSIM_TEST_DIR "/litmus"

static struct tu_run r;

/* The shipped tests, space-separated, and how many. */
static int litmus_files(char *buf, size_t size)
{
    DIR *d = opendir(LITMUS_DIR);
    ck_assert(d != NULL);
    int n = 0;
    size_t len = 0;
    buf[0] = '\0';
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 8 || strcmp(e->d_name + l - 7, ".litmus") != 0)
            continue;
        len += (size_t)snprintf(buf + len, size - len, " %s/%s", LITMUS_DIR, e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* Every shipped test on every shipped config (`ccsim list configs`): the
 * verdict each expects, or exit 2 naming a non-coherent machine. The
 * sanitizer pass runs two configs. */
START_TEST(test_every_config)
{
    static char files[8192];
    int n = litmus_files(files, sizeof files);
    ck_assert_int_ge(n, 14);
    static struct tu_run list;
    tu_ccsim(&list, "list configs");
    ck_assert_int_eq(list.status, 0);
    int coherent = 0;
    for (char *line = strtok(list.out, "\n"); line; line = strtok(NULL, "\n")) {
        char name[128];
        if (sscanf(line, " %127[^. ].cfg", name) != 1 || !strstr(line, ".cfg"))
            continue;
        if (tu_small_scale() && strcmp(name, "teach-xbar") != 0 && strcmp(name, "knc-5110p") != 0)
            continue;
        tu_ccsim(&r, "litmus -c %s --runs 5 %s", name, files);
        if (strstr(line, " scc ")) {
            ck_assert_msg(r.status == 2 && strstr(r.err, "not coherent"), "%s: %s", name, r.err);
            continue;
        }
        ck_assert_msg(r.status == 0, "%s: %s%s", name, r.out, r.err);
        ck_assert_msg(tu_count(r.out, ": met\n") == n, "%s: %s", name, r.out);
        ck_assert_msg(tu_count(r.out, "5 runs (seeds 1..5)") == n, "%s", r.out);
        coherent++;
    }
    ck_assert_int_ge(coherent, 2);
}
END_TEST

/* ---------------------------------------------------------- SC outcomes */

/* A test as ops in program order: thread, store (value) or load (into
 * register reg), location. */
struct op {
    int thread;
    bool store;
    int loc, value, reg;
};

struct prog {
    const char *file;
    const struct op *ops;
    int nops;
    const char *regs[2]; /* the outcome's registers "T:REG", as ccsim shows them */
    int reg_thread[2], reg_index[2];
};

/* Every interleaving of the threads' ops (program order kept), its
 * outcome string added to set. */
static void enumerate(const struct prog *p, bool *done, int *mem, int regs[4][2], char set[][64],
                      int *nset, int left)
{
    if (!left) {
        char s[64];
        snprintf(s, sizeof s, "%s=%d; %s=%d;", p->regs[0], regs[p->reg_thread[0]][p->reg_index[0]],
                 p->regs[1], regs[p->reg_thread[1]][p->reg_index[1]]);
        for (int i = 0; i < *nset; i++)
            if (strcmp(set[i], s) == 0)
                return;
        snprintf(set[(*nset)++], 64, "%s", s);
        return;
    }
    for (int i = 0; i < p->nops; i++) {
        if (done[i])
            continue;
        bool first = true; /* the thread's next op: no earlier op of its thread pending */
        for (int j = 0; j < i; j++)
            first &= done[j] || p->ops[j].thread != p->ops[i].thread;
        if (!first)
            continue;
        const struct op *o = &p->ops[i];
        int saved_mem = mem[o->loc], saved_reg = regs[o->thread][o->reg];
        if (o->store)
            mem[o->loc] = o->value;
        else
            regs[o->thread][o->reg] = mem[o->loc];
        done[i] = true;
        enumerate(p, done, mem, regs, set, nset, left - 1);
        done[i] = false;
        mem[o->loc] = saved_mem;
        regs[o->thread][o->reg] = saved_reg;
    }
}

enum { X, Y };
static const struct op mp_ops[] = {
    {0, true, X, 1, 0}, {0, true, Y, 1, 0}, {1, false, Y, 0, 0}, {1, false, X, 0, 1}};
static const struct op sb_ops[] = {
    {0, true, X, 1, 0}, {0, false, Y, 0, 0}, {1, true, Y, 1, 0}, {1, false, X, 0, 0}};
static const struct prog progs[] = {
    {"MP", mp_ops, 4, {"1:EAX", "1:EBX"}, {1, 1}, {0, 1}},
    {"SB", sb_ops, 4, {"0:EAX", "1:EAX"}, {0, 1}, {0, 0}},
};
static const char *const sc_configs[] = {"teach-xbar", "knc-5110p"};

START_TEST(test_sc_outcomes_appear)
{
    if (tu_small_scale() && _i / 2 > 0)
        return; /* the sanitizer pass: teach-xbar only */
    const struct prog *p = &progs[_i % 2];
    char set[24][64];
    int nset = 0, mem[2] = {0, 0}, regs[4][2] = {{0}};
    bool done[8] = {false};
    enumerate(p, done, mem, regs, set, &nset, p->nops);
    ck_assert_int_eq(nset, 3); /* MP and SB both: three of the four outcomes */
    tu_ccsim(&r, "litmus -c %s --runs 100 %s/%s.litmus", sc_configs[_i / 2], LITMUS_DIR, p->file);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "Histogram (3 states)"), "%s", r.out);
    for (int i = 0; i < nset; i++) {
        char want[80];
        snprintf(want, sizeof want, ":>%.63s\n", set[i]);
        ck_assert_msg(strstr(r.out, want), "%s on %s: SC outcome %s never appeared:\n%s", p->file,
                      sc_configs[_i / 2], set[i], r.out);
    }
}
END_TEST

START_TEST(test_same_seeds_same_bytes)
{
    static struct tu_run again;
    const char *cfg = tu_small_scale() ? "teach-xbar" : "knc-5110p";
    tu_ccsim(&r, "litmus -c %s --runs 20 %s/IRIW.litmus", cfg, LITMUS_DIR);
    tu_ccsim(&again, "litmus -c %s --runs 20 %s/IRIW.litmus", cfg, LITMUS_DIR);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, again.out);
}
END_TEST

START_TEST(test_wrong_verdict_fails)
{
    tu_ccsim(&r, "litmus --runs 10 --expect Ok %s/SB.litmus", LITMUS_DIR);
    ck_assert_msg(r.status == 1 && strstr(r.out, "Expected Ok: NOT met"), "%s%s", r.out, r.err);
    const char *f = tu_write("wrong.litmus", "X86 wrong\n(* ccsim-expect: No *)\n{ x=0; }\n"
                                             " P0 ;\n MOV [x],$1 ;\nexists (x=1)\n");
    tu_ccsim(&r, "litmus --runs 3 %s", f);
    ck_assert_msg(r.status == 1 && strstr(r.out, "\nOk\n") && strstr(r.out, "Expected No: NOT met"),
                  "%s%s", r.out, r.err);
}
END_TEST

/* The layout herd's catalogue uses: diy's KEY=VALUE lines, the braces on
 * lines of their own, the condition on the line after `exists`; and lower
 * case, spaces around '=', a type in the init. */
START_TEST(test_herd_layout)
{
    const char *f = tu_write(
        "layout.litmus",
        "X86 layout\n\"PodWW Rfe PodRR Fre\"\nGenerator=diyone7\nCom=Rf Fr\n{\nint x = 0;\n"
        "1:EBX = 7;\n}\n P0         | P1          ;\n mov [x],$1 | mov eax,[x] ;\n"
        "            | lock xadd [x],EBX ;\nlocations [x;]\nexists\n(1:EAX = 0 /\\ 1:EBX=0)\n");
    tu_ccsim(&r, "litmus --runs 40 %s", f);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, ">x=1; 1:EAX=0; 1:EBX=0;") &&
                      strstr(r.out, ">x=8; 1:EAX=1; 1:EBX=1;"),
                  "%s", r.out);
}
END_TEST

/* An outcome is its every value: 32 shown values, the condition's register
 * the 33rd, were one histogram row whose ':' contradicted "Ok, Positive 8". */
START_TEST(test_every_value_keys_the_state)
{
    /* 16 locations and 16 registers (not 0:EAX) shown */
    static const char *const regs[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"};
    char text[1024] = "X86 SHOW\n{ ";
    for (int i = 0; i < 16; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "a%d=0; ", i);
    strcat(text, "}\n P0 | P1 | P2 ;\n MOV EAX,[a0] | MOV [a0],$1 | ;\nlocations [");
    for (int i = 0; i < 16; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "a%d; ", i);
    for (int i = 1; i < 17; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%d:%s; ", i / 8, regs[i % 8]);
    strcat(text, "]\nexists (0:EAX=1)\n");
    tu_ccsim(&r, "litmus --runs 20 %s", tu_write("show.litmus", text));
    ck_assert_msg(r.status == 0 && strstr(r.out, "Histogram (2 states)") &&
                      strstr(r.out, "2:EAX=0; 0:EAX=1;") && strstr(r.out, "2:EAX=0; 0:EAX=0;"),
                  "%s%s", r.out, r.err);
}
END_TEST

/* Malformed tests: exit 2 and FILE:LINE: naming what is wrong. */
static const struct {
    const char *text;
    int line;
    const char *what;
} bad[] = {
    {"ARM x\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 1, "X86 NAME"},
    {"X86 t\n{ x=0; }\n P0 | P1 ;\n MOV [x],$1 ;\nexists (x=1)\n", 4, "1 column"},
    {"X86 t\n{ x=0; }\n P0 ;\n JMP L0 ;\nexists (x=1)\n", 4, "not in the subset"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1 /\\ )\n", 5, "expected P:REG=VALUE"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\n", 4, "no final condition"},
    {"X86 t\n{ x=zero; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 2, "not a number"},
    {"X86 t\n{ x=0; }\n P0 ;\n INC [x] ;\nexists (x=1)\n", 4, "without LOCK"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (3:EAX=1)\n", 5, "thread 3"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1))\n", 5, "unexpected ')'"},
    {"X86 t\n{ x=0; }\n\n P0 | P1 | P2 | P3 | P4 ;\n | | | | ;\nexists (x=1)\n", 4,
     "5 threads, but teach-xbar has 4 cores"},
    /* the cell as written, not cut at its comma */
    {"X86 t\n{ x=0; }\n P0 ;\n LOCK MOV [x],$1 ;\nexists (x=1)\n", 4,
     "'LOCK MOV [x],$1' is not in the subset"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists (x=99999999999999999999999)\n", 5,
     "out of range"},
    {"X86 t\n{ x=0;\n 3:EAX=1; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 3,
     "register 3:EAX, but the test has 1 thread(s)"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists\n", 5, "expected P:REG=VALUE"},
    /* a bare name is no register (herd has no such operand): not a copy of register Y */
    {"X86 t\n{ x=0; y=0; }\n P0 ;\n MOV EAX,y ;\nexists (0:EAX=1)\n", 4,
     "'y' is not an x86 register"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV EAX,[EBX] ;\nexists (0:EAX=1)\n", 4,
     "'[EBX]': ccsim reads no addressing through a register"},
    {"X86 t\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nlocations [5:EAX;]\nexists (0:EAX=1)\n", 5,
     "locations: thread 5, but the test has 1 thread(s)"},
    /* deeper than the parser follows: refused, not a stack overflow (50 000 ~ crashed) */
    {"X86 t\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists "
     "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~x=1\n",
     5, "nested more than 64 deep"},
    {"X86 t\n(* (* nested, open *)\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 2,
     "without its '*)'"},
};

/* herd's conventions: a number with a leading 0 is decimal; for ~exists
 * the witnesses count the runs that satisfy the condition (its proposition
 * false) as positive; comments nest; a folder is not an empty file. */
START_TEST(test_herd_conventions)
{
    const char *f = tu_write("dec.litmus", "X86 dec\n{ x=010; }\n P0 ;\n MOV EAX,[x] ;\n"
                                           "exists (0:EAX=10)\n");
    tu_ccsim(&r, "litmus --runs 2 %s", f);
    ck_assert_msg(r.status == 0 && strstr(r.out, ">0:EAX=10;") &&
                      strstr(r.out, "exists (0:EAX=10) is validated"),
                  "%s%s", r.out, r.err);
    tu_ccsim(&r, "litmus --runs 5 %s/XCHG-atomic.litmus", LITMUS_DIR);
    ck_assert_msg(r.status == 0 && strstr(r.out, "Positive: 5, Negative: 0") &&
                      strstr(r.out, "Observation XCHG-atomic Never 0 5"),
                  "%s%s", r.out, r.err);
    f = tu_write("nest.litmus", "X86 nest\n(* outer (* inner *) still comment *)\n{ x=0; }\n"
                                "P0 ;\n MOV [x],$1 ;\nexists (x=1) (* a (* b *) c=1 *)\n");
    tu_ccsim(&r, "litmus --runs 1 %s", f); /* comments nest, as in herd's lexer */
    ck_assert_msg(r.status == 0 && strstr(r.out, "Observation nest Always 1 0"), "%s%s", r.out,
                  r.err);
    char deep[256] = "X86 deep\n{ x=0; }\n P0 ;\n MOV [x],$1 ;\nexists ";
    for (int i = 0; i < 64; i++) /* 64 levels: the most the parser takes (65 are refused) */
        strcat(deep, "~");
    strcat(deep, "x=1\n");
    tu_ccsim(&r, "litmus --runs 1 %s", tu_write("deep.litmus", deep));
    ck_assert_msg(r.status == 0 && strstr(r.out, "Observation deep Always 1 0"), "%s%s", r.out,
                  r.err);
    tu_ccsim(&r, "litmus --runs 1 %s", tu_dir());
    ck_assert_msg(r.status == 2 && strstr(r.err, "cannot read: Is a directory"), "%s", r.err);
}
END_TEST

START_TEST(test_malformed)
{
    const char *f = tu_write("bad.litmus", bad[_i].text);
    tu_ccsim(&r, "litmus --runs 1 %s", f);
    char want[700];
    snprintf(want, sizeof want, "%s:%d: ", f, bad[_i].line);
    ck_assert_msg(r.status == 2 && strstr(r.err, want) && strstr(r.err, bad[_i].what),
                  "case %d: exit %d, want '%s' and '%s':\n%s", _i, r.status, want, bad[_i].what,
                  r.err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("litmus");
    TCase *tc = tcase_create("litmus");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_config);
    tcase_add_loop_test(tc, test_sc_outcomes_appear, 0, 4);
    tcase_add_test(tc, test_same_seeds_same_bytes);
    tcase_add_test(tc, test_wrong_verdict_fails);
    tcase_add_test(tc, test_herd_layout);
    tcase_add_test(tc, test_every_value_keys_the_state);
    tcase_add_loop_test(tc, test_malformed, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_herd_conventions);
    suite_add_tcase(s, tc);
    return tu_run_suite(s);
}
