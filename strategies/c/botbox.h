/* botbox.h: the core of the C SDK for botbox bots (docs/bots/c.md, docs/wasm-abi.md).
 *
 * A bot is one file, bot.c, that includes ONE game header (2048.h, bs.h, connect4.h, dice.h,
 * tron.h or worms.h); the game header includes this one. This file gives the bot:
 *   botbox_log("text"), botbox_logf("turn %u: %s", n, s)   a line in the bot's log
 *   botbox_setup.seed / .seat / .game / .json                the game's setup, read before move 1
 *   Rng rng = rng_new(botbox_setup.seed); rng_below(&rng, n)  a seeded generator (SplitMix64)
 * and, for the game headers, the module's exports (memory, botbox_alloc, botbox_init,
 * botbox_encoding), a postcard reader and writer, and memcpy/memset/memmove (the compiler calls them
 * for struct copies; defining them here keeps the module's only import botbox.log).
 *
 * Everything lives in static storage: nothing is allocated per decision, so a module can play
 * thousands of moves (one 2048 game) in the same memory. Build with -ffreestanding -nostdlib. */
#ifndef BOTBOX_H
#define BOTBOX_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOTBOX_EXPORT(name) __attribute__((export_name(name)))

/* ---- Logging --------------------------------------------------------------------------------- */

__attribute__((import_module("botbox"), import_name("log")))
void botbox_log_bytes(const char *text, int32_t len);

/* Appends one line to the bot's log (shown by `botbox check`; at most 64 KiB a game are kept). */
static inline void botbox_log(const char *text) {
    int32_t n = 0;
    while (text[n]) n++;
    botbox_log_bytes(text, n);
}

/* A small printf: %d %u %x %c %s %%, and %lld %llu %llx for 64-bit numbers (uint64_t, int64_t).
 * A line is cut after about 480 bytes. */
static inline void botbox_logf(const char *format, ...) {
    char line[512];
    int n = 0;
    va_list args;
    va_start(args, format);
    for (const char *f = format; *f && n < 480; f++) {
        if (*f != '%') { line[n++] = *f; continue; }
        f++;
        bool wide = false;
        if (f[0] == 'l' && f[1] == 'l') { wide = true; f += 2; }
        char digits[24];
        int d = 0, base = 10;
        uint64_t v = 0;
        switch (*f) {
        case 'd': {
            int64_t s = wide ? va_arg(args, long long) : va_arg(args, int);
            if (s < 0) { line[n++] = '-'; v = 0 - (uint64_t)s; } else v = (uint64_t)s;
            break;
        }
        case 'x': base = 16; /* fall through */
        case 'u': v = wide ? va_arg(args, unsigned long long) : va_arg(args, unsigned); break;
        case 'c': line[n++] = (char)va_arg(args, int); continue;
        case 's': {
            const char *s = va_arg(args, const char *);
            for (s = s ? s : "(null)"; *s && n < 510; s++) line[n++] = *s;
            continue;
        }
        case '\0': f--; continue;
        default: line[n++] = *f; continue;
        }
        do { digits[d++] = "0123456789abcdef"[v % base]; v /= base; } while (v);
        while (d) line[n++] = digits[--d];
    }
    va_end(args);
    botbox_log_bytes(line, n);
}

/* ---- Setup and randomness -------------------------------------------------------------------- */

typedef struct {
    char game[32];   /* "2048", "bs", "connect4", "dice", "tron", "worms" */
    uint64_t seed;   /* for the bot's own random choices: the same seed replays the same game */
    uint32_t seat;   /* the seat this bot plays, from 0 */
    char json[2048]; /* the setup as received, e.g. {"game":"dice","seed":7,"seat":1,"params":{..}} */
} Setup;

/* Filled by botbox_init, before the first decision. */
static Setup botbox_setup;

/* SplitMix64, the same generator as the Rust SDK's Rng: rng_new(seed) gives the same numbers there. */
typedef struct { uint64_t state; } Rng;

static inline Rng rng_new(uint64_t seed) { Rng r = { seed }; return r; }

static inline uint64_t rng_next_u64(Rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in 0..n-1 (n > 0). */
static inline uint32_t rng_below(Rng *r, uint32_t n) {
    return (uint32_t)(((rng_next_u64(r) >> 32) * n) >> 32);
}

/* ---- Memory functions the compiler may call ----------------------------------------------------- */

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) while (n--) *d++ = *s++;
    else while (n--) d[n] = s[n];
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    unsigned char *d = dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

/* ---- The ABI's exports: input buffer, setup, encoding ------------------------------------------ */

static uint8_t bb_input[64 * 1024];
static uint8_t *bb_big;      /* pages grown for an input over 64 KiB (none of today's games) */
static uint32_t bb_big_size;

/* The host asks for `size` bytes before each call and writes its input there; the same buffer
 * serves every call. */
BOTBOX_EXPORT("botbox_alloc") int32_t bb_alloc(int32_t size) {
    if (size <= (int32_t)sizeof bb_input) return (int32_t)(uintptr_t)bb_input;
    if ((uint32_t)size > bb_big_size) {
        uint32_t pages = ((uint32_t)size + 65535) >> 16;
        int32_t old = __builtin_wasm_memory_grow(0, pages);
        if (old < 0) __builtin_trap(); /* over the memory cap */
        bb_big = (uint8_t *)(uintptr_t)((uint32_t)old << 16);
        bb_big_size = pages << 16;
    }
    return (int32_t)(uintptr_t)bb_big;
}

/* The text just after `key` in the setup JSON (spaces skipped), or 0. */
static inline const char *bb_after(const char *json, const char *key) {
    for (const char *p = json; *p; p++) {
        const char *k = key, *q = p;
        while (*k && *q == *k) { k++; q++; }
        if (*k) continue;
        while (*q == ' ') q++;
        return q;
    }
    return 0;
}

/* The unsigned number at `p` (up to 2^64-1), or 0. */
static inline uint64_t bb_number(const char *p) {
    uint64_t v = 0;
    while (p && *p >= '0' && *p <= '9') v = v * 10 + (uint64_t)(*p++ - '0');
    return v;
}

/* The setup JSON, once per game: {"game":"2048","seed":123,"seat":0} (and "params" if given). */
BOTBOX_EXPORT("botbox_init") int32_t bb_init(const char *json, int32_t len) {
    if (len < 0 || len >= (int32_t)sizeof botbox_setup.json) {
        botbox_log("botbox: the setup is longer than botbox_setup.json (2047 bytes)");
        return -1;
    }
    memcpy(botbox_setup.json, json, (size_t)len);
    botbox_setup.json[len] = 0;
    botbox_setup.seed = bb_number(bb_after(botbox_setup.json, "\"seed\":"));
    botbox_setup.seat = (uint32_t)bb_number(bb_after(botbox_setup.json, "\"seat\":"));
    const char *g = bb_after(botbox_setup.json, "\"game\":\"");
    for (int n = 0; g && g[n] && g[n] != '"' && n < 31; n++) botbox_setup.game[n] = g[n];
    return 0;
}

/* 1: every decision crosses as postcard (docs/wasm-abi.md, "Encodings"). */
BOTBOX_EXPORT("botbox_encoding") int32_t bb_encoding(void) { return 1; }

/* ---- postcard reader (used by the game headers) ------------------------------------------------ */

typedef struct {
    const uint8_t *at, *end;
    bool failed; /* set by the first bad read; later reads return 0 */
} BbReader;

static inline bool bb_fail(BbReader *r, const char *why) {
    if (!r->failed) botbox_logf("botbox: bad input: %s", why);
    r->failed = true;
    return false;
}

static inline uint64_t bb_u64(BbReader *r) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (r->failed || r->at >= r->end) { bb_fail(r, "input ends inside a number"); return 0; }
        uint8_t b = *r->at++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    bb_fail(r, "a number is too long");
    return 0;
}

static inline uint32_t bb_u32(BbReader *r) {
    uint64_t v = bb_u64(r);
    if (v > 0xffffffffu) bb_fail(r, "a number is over 32 bits");
    return (uint32_t)v;
}

static inline int32_t bb_i32(BbReader *r) {
    uint32_t z = bb_u32(r);
    return (int32_t)(z >> 1) ^ -(int32_t)(z & 1);
}

static inline uint8_t bb_u8(BbReader *r) {
    if (r->failed || r->at >= r->end) { bb_fail(r, "input ends early"); return 0; }
    return *r->at++;
}

static inline bool bb_bool(BbReader *r) {
    uint8_t b = bb_u8(r);
    if (b > 1) bb_fail(r, "a bool is not 0 or 1");
    return b == 1;
}

/* An enum's variant index, below `count`. */
static inline uint32_t bb_variant(BbReader *r, uint32_t count) {
    uint32_t v = bb_u32(r);
    if (v >= count) { bb_fail(r, "an unknown enum variant"); v = 0; }
    return v;
}

/* A list's or string's length; more than `capacity` is logged, naming `what`, and fails the call. */
static inline uint32_t bb_len(BbReader *r, uint32_t capacity, const char *what) {
    uint32_t n = bb_u32(r);
    if (!r->failed && n > capacity) {
        botbox_logf("botbox: %s has %u items, over the capacity of %u", what, n, capacity);
        r->failed = true;
    }
    return r->failed ? 0 : n;
}

/* A string into `dst` (capacity bytes, a terminating 0 included); returns its length. */
static inline uint32_t bb_str(BbReader *r, char *dst, uint32_t capacity, const char *what) {
    uint32_t n = bb_len(r, capacity - 1, what);
    if ((uint32_t)(r->end - r->at) < n) { bb_fail(r, "input ends inside a string"); n = 0; }
    for (uint32_t i = 0; i < n; i++) dst[i] = (char)r->at[i];
    r->at += n;
    dst[n] = 0;
    return n;
}

/* Starts reading the input the host wrote at ptr. */
static inline BbReader bb_reader(const uint8_t *ptr, int32_t len) {
    BbReader r = { ptr, ptr + (len < 0 ? 0 : len), false };
    return r;
}

/* True if the whole input was read without error. */
static inline bool bb_done(BbReader *r) {
    if (!r->failed && r->at != r->end) bb_fail(r, "bytes left over after the observation");
    return !r->failed;
}

/* ---- postcard writer: the answer, in a static buffer valid until the next call ----------------- */

static uint8_t bb_out[512];
static uint32_t bb_out_len;
static bool bb_out_overflow;

static inline void bb_begin(void) { bb_out_len = 0; bb_out_overflow = false; }

static inline void bb_put_u8(uint8_t b) {
    if (bb_out_len < sizeof bb_out) bb_out[bb_out_len++] = b;
    else bb_out_overflow = true;
}

static inline void bb_put_u64(uint64_t v) {
    while (v >= 0x80) { bb_put_u8((uint8_t)(v | 0x80)); v >>= 7; }
    bb_put_u8((uint8_t)v);
}

static inline void bb_put_i32(int32_t v) { bb_put_u64(((uint32_t)v << 1) ^ (uint32_t)(v >> 31)); }

/* The decision's return value: (address << 32) | length, or -3 if the answer did not fit. */
static inline int64_t bb_finish(void) {
    if (bb_out_overflow) { botbox_log("botbox: the answer is over 512 bytes"); return -3; }
    return ((int64_t)(uintptr_t)bb_out << 32) | bb_out_len;
}

/* Negative results of a decision export: the input could not be read (already logged). */
#define BB_BAD_INPUT (-2)

#endif
