/* scorpion_search.c: a native C baseline of the jitted search (scorpion_solver/kernel.py).
 *
 * The same depth-first search as kernel.search, written as plain C for speed:
 * same compact state (584 int8 per ply) and key vector (256 uint64 per ply),
 * same move generation and order, same incremental keys, same deadlock
 * pruning, same open-addressing table with the same deferred probes. It
 * visits the very same nodes and leaves the caller's arrays (counters, C_SP,
 * moves/nmoves/midx of the winning path, table) exactly as the numba kernel
 * does, so search.solve drives it unchanged (benchmarks/c_kernel.py wraps it
 * with ctypes). It exists to measure the numba kernel against: see
 * benchmarks/compare_c.py and benchmarks/c_baseline/README.md.
 *
 * Mirrors scorpion_solver/kernel.py (since the geometric height table,
 * Z = A * R^h); tests/test_c_baseline.py keeps the two in step, wanting the
 * same nodes and the same table. The comments of that file explain the
 * scheme (keys, deferred probes, deadlock test), and the function names here
 * are its names without the leading underscore.
 *
 * Build (c_kernel.py does this, cached by a hash of this file):
 *     gcc -O3 -march=native -shared -fPIC -std=c11 -o scorpion_search.so scorpion_search.c
 * C11 with GCC builtins (__builtin_prefetch, __builtin_expect, attributes); libc only.
 */

#include <stdint.h>
#include <string.h>

/* state layout (int8 vector of STATE_SIZE bytes) */
#define COL_CAP 64
#define COLS 0
#define LEN 448
#define HID 455
#define FLOOR 462
#define LOCCOL 469
#define LOCIDX 521
#define TAIL 573
#define DEALT 576
#define SWEPT 577
#define FROZEN 578
#define STATE_SIZE 584

/* key vector layout (uint64 vector of KEYS_SIZE entries) */
#define KEY1 14
#define KEY2 15
#define MIXED 16
#define BELOW_Z 32
#define KEYS_SIZE 136

#define TAIL_CODE (52 * 8)
#define MAX_MOVES 256

/* random tables: z (2, 52 * 64), zh (2, 64), salt (2, 8), misc (2, MISC_SIZE) */
#define ZROW (52 * COL_CAP)
#define MISC_TAIL 8
#define MISC_POW (MISC_TAIL + 3 * 52) /* R^d at MISC_POW + COL_CAP + d, -COL_CAP < d < COL_CAP */
#define MISC_SIZE (MISC_POW + 2 * COL_CAP)

/* status codes */
#define S_WON 1
#define S_LOST 2
#define S_NODES 3
#define S_GROW 4
#define S_DEEPER 5

/* counters */
#define PRUNE_DEADLOCK 1
#define PRUNE_SAFE_LEADS 2
#define PRUNE_SUCCESSOR_ABOVE 4

#define C_NODES 0
#define C_ENTRIES 1
#define C_PRUNES 2
#define C_MAXDEPTH 3
#define C_SP 4
#define C_DEAD_ROOT 5
#define C_MAKES 6
#define C_CHECKS 7

/* per-card facts of the deadlock test */
#define F_ON_TABLE 1
#define F_STUCK 2
#define F_DOWN 4
#define F_BOTTOM 8
#define F_QUEEN_ON 16
#define F_LEFT 32

#define LFP_NO_SPACE 0
#define LFP_SPACE 1
#define LFP_PASSES 2

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

typedef int8_t *restrict State;
typedef uint64_t *restrict Keys;
typedef const uint64_t *restrict Table;

/* Rank test on a card known not to be negative: unsigned, so no sign fix-up. */
static inline unsigned rank(int card) { return (unsigned)card % 13u; }

static inline uint64_t mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline int slot(const int8_t *restrict s, int col)
{
    return (s[DEALT] == 0 && col < 3) ? col : 7;
}

/* A frame row copy (584 or 1088 bytes) through libc's memcpy, as the numba kernel's
 * llvm.memcpy with a runtime size does: gcc expands a constant-size memcpy this big
 * inline as rep movsq, measured a few per cent slower on the whole search here. */
static inline void copy_row(void *restrict dst, const void *restrict src, size_t n)
{
    __asm__("" : "+r"(n)); /* hide the constant size from the optimizer */
    memcpy(dst, src, n);
}

/* ------------------------------------------------------------------------- */
/* move generation                                                            */

static inline int is_won(const int8_t *restrict s, int64_t won_by_sweeps)
{
    if (won_by_sweeps)
        return s[SWEPT] == 4;
    if (s[DEALT] == 0)
        return 0;
    for (int col = 0; col < 7; col++) {
        int length = s[LEN + col];
        if (length == 0)
            continue;
        if (length % 13 != 0 || s[HID + col] != 0)
            return 0;
        if (rank(s[COLS + COL_CAP * col + length - 1]) != 0)
            return 0;
    }
    for (int col = 0; col < 7; col++) {
        const int8_t *column = s + COLS + COL_CAP * col;
        for (int start = 0; start < s[LEN + col]; start += 13) {
            int king = column[start];
            if (rank(king) != 12)
                return 0;
            for (int k = 0; k < 13; k++)
                if (column[start + k] != king - k)
                    return 0;
        }
    }
    return 1;
}

/* King-led moves into the empty column dst, by source column then height. */
static inline int push_kings(const int8_t *restrict s, uint16_t *restrict out, int n, int dst)
{
    int first = n;
    for (int king = 12; king < 52; king += 13) {
        int src = s[LOCCOL + king];
        if (src < 0)
            continue;
        int i = s[LOCIDX + king];
        if (i < s[HID + src] || i < s[FLOOR + src])
            continue;
        if (i == 0 && (s[DEALT] == 1 || (src >= 3 && dst >= 3)))
            continue; /* relocating a whole column changes nothing */
        int order = src * COL_CAP + i;
        int j = n;
        while (j > first) { /* insertion sort on (source column, height) */
            int prev = out[j - 1] >> 3;
            if (s[LOCCOL + prev] * COL_CAP + s[LOCIDX + prev] <= order)
                break;
            out[j] = out[j - 1];
            j--;
        }
        out[j] = (uint16_t)(king * 8 + dst);
        n++;
    }
    return n;
}

/* Moves into the empty column dst, by source column then height. */
static inline int push_cards_kings(const int8_t *restrict s, uint16_t *restrict out, int n, int dst,
                                   int64_t space_any)
{
    if (space_any == 0)
        return push_kings(s, out, n, dst);
    for (int src = 0; src < 7; src++) {
        int length = s[LEN + src];
        int start = s[HID + src];
        if (s[FLOOR + src] > start)
            start = s[FLOOR + src];
        const int8_t *column = s + COLS + COL_CAP * src;
        for (int i = start; i < length; i++) {
            if (i == 0 && (s[DEALT] == 1 || (src >= 3 && dst >= 3)))
                continue;
            out[n++] = (uint16_t)(column[i] * 8 + dst);
        }
    }
    return n;
}

/* kernel._safe_lead: a non-King lead that may be played before any other (the argument is there). */
static inline int safe_lead(const int8_t *restrict s, uint16_t code) {
    if (code == TAIL_CODE)
        return 0;
    int c = code / 8;
    if (c % 13 == 12)
        return 0;
    int dst = code % 8;
    int src = s[LOCCOL + c];
    int i = s[LOCIDX + c];
    const int8_t *x = s + COLS + COL_CAP * src;
    int top = s[LEN + src] - 1;
    int group_run = 1;
    for (int k = i + 1; k <= top; k++)
        if (x[k] != c - (k - i)) {
            group_run = 0;
            break;
        }
    int t = c - (top - i);
    const int8_t *y = s + COLS + COL_CAP * dst;
    int h = s[LEN + dst] - 1;
    while (h > 0 && y[h - 1] == y[h] + 1)
        h--;
    int low = y[h];
    if (group_run) {
        if (t % 13 == 0)
            return 1;
        int g = i - 1;
        while (g > 0 && x[g - 1] == x[g] + 1)
            g--;
        if (s[LOCCOL + t - 1] == src && s[LOCIDX + t - 1] >= g && s[LOCIDX + t - 1] < i)
            return 1;
    }
    if (h > s[HID + dst] && h > s[FLOOR + dst])
        return 0;
    if (low % 13 == 12)
        return 1;
    return i > 0 && x[i - 1] == low + 1;
}

/* The legal moves of s in canonical order (kernel.generate_moves). */
static inline int generate_moves(const int8_t *restrict s, uint16_t *restrict out, int64_t space_any,
                                 int64_t tail_when_stuck, int64_t won_by_sweeps)
{
    if (is_won(s, won_by_sweeps))
        return 0;
    int n = 0;
    int free_seen = 0;
    for (int dst = 0; dst < 7; dst++) {
        int length = s[LEN + dst];
        if (length > 0) {
            /* Branch-free (as the numba kernel, a measured win there): the reads
             * for a card that cannot move stay inside the state vector (c = -1
             * under card 0, src = -1 off the table) and are masked out by ok. */
            int t = s[COLS + COL_CAP * dst + length - 1];
            int c = t - 1;
            int src = s[LOCCOL + c];
            int i = s[LOCIDX + c];
            int hid = s[HID + src], fl = s[FLOOR + src];
            int floor = hid > fl ? hid : fl;
            int ok = (rank(t) != 0) & (src >= 0) & (src != dst) & (i >= floor);
            out[n] = (uint16_t)(c * 8 + dst);
            n += ok;
        } else {
            if (s[DEALT] == 1 || dst >= 3) {
                if (free_seen)
                    continue;
                free_seen = 1;
            }
            n = push_cards_kings(s, out, n, dst, space_any);
        }
    }
    if (s[DEALT] == 0) {
        if (tail_when_stuck == 0) {
            out[n++] = TAIL_CODE;
        } else {
            int stuck = 1; /* no move but whole-column relocations into a space */
            for (int j = 0; j < n; j++) {
                int c = out[j] >> 3;
                if (s[LOCIDX + c] != 0 || s[LEN + (out[j] & 7)] != 0) {
                    stuck = 0;
                    break;
                }
            }
            if (stuck)
                out[n++] = TAIL_CODE;
        }
    }
    return n;
}

/* ------------------------------------------------------------------------- */
/* make                                                                       */

/* Flip a face-down top; sweep (repeatedly) or freeze a complete top run. */
static inline void settle(State s, Keys keys, int col, int64_t sweeps, int64_t freezes, Table z, Table zh)
{
    int8_t *column = s + COLS + COL_CAP * col;
    for (;;) {
        int length = s[LEN + col];
        if (length > 0 && s[HID + col] >= length) {
            int h = s[HID + col];
            keys[col] += zh[length - 1] - zh[h];
            keys[7 + col] += zh[COL_CAP + length - 1] - zh[COL_CAP + h];
            s[HID + col] = (int8_t)(length - 1);
        }
        if (length - s[HID + col] < 13 || length - s[FLOOR + col] < 13)
            return;
        int ace = column[length - 1];
        if (rank(ace) != 0)
            return;
        for (int k = 1; k < 13; k++)
            if (column[length - 1 - k] != ace + k)
                return;
        if (sweeps) {
            for (int i = length - 13; i < length; i++) {
                int c = column[i];
                for (int k = 0; k < 2; k++) {
                    keys[7 * k + col] -= z[k * ZROW + c * COL_CAP + i];
                    keys[BELOW_Z + 52 * k + c] = 0;
                }
                s[LOCCOL + c] = -1;
            }
            s[LEN + col] = (int8_t)(length - 13);
            s[SWEPT] += 1;
            continue;
        }
        if (freezes) {
            s[FLOOR + col] = (int8_t)length;
            s[FROZEN] |= (int8_t)(1 << (ace / 13));
        }
        return;
    }
}

static inline uint64_t key_from_columns(const int8_t *restrict s, Keys keys, int k, Table salt, Table misc)
{
    uint64_t key = 0;
    for (int col = 0; col < 7; col++) {
        uint64_t term = mix(keys[7 * k + col] + salt[8 * k + slot(s, col)]);
        keys[MIXED + 7 * k + col] = term;
        key += term;
    }
    if (s[DEALT] == 0) {
        key += misc[MISC_SIZE * k];
        for (int t = 0; t < 3; t++)
            key += misc[MISC_SIZE * k + MISC_TAIL + 52 * t + s[TAIL + t]];
    }
    for (int suit = 0; suit < 4; suit++)
        if ((s[FROZEN] >> suit) & 1)
            key += misc[MISC_SIZE * k + 1 + suit];
    return key;
}

/* A card move decoded against the state before it: card c leads the block of cards from
 * height i of column src (length cards high) onto column dst (j cards high). */
typedef struct {
    int c, dst, src, i, length, j;
} Block;

static inline Block decode(const int8_t *restrict s, unsigned code)
{
    Block m;
    m.c = (int)(code >> 3);
    m.dst = (int)(code & 7);
    m.src = s[LOCCOL + m.c];
    m.i = s[LOCIDX + m.c];
    m.length = s[LEN + m.src];
    m.j = s[LEN + m.dst];
    return m;
}

/* Play the move code on state s and its keys, in place. */
static inline void make_move(State s, Keys keys, unsigned code, int64_t sweeps, int64_t freezes, Table z,
                             Table zh, Table salt, Table misc)
{
    if (code == TAIL_CODE) {
        for (int col = 0; col < 3; col++) {
            int c = s[TAIL + col];
            int i = s[LEN + col];
            s[COLS + COL_CAP * col + i] = (int8_t)c;
            s[LOCCOL + c] = (int8_t)col;
            s[LOCIDX + c] = (int8_t)i;
            s[LEN + col] = (int8_t)(i + 1);
            s[TAIL + col] = -1;
            for (int k = 0; k < 2; k++) {
                keys[BELOW_Z + 52 * k + c] = keys[7 * k + col] - zh[COL_CAP * k + s[HID + col]];
                keys[7 * k + col] += z[k * ZROW + c * COL_CAP + i];
            }
        }
        s[DEALT] = 1;
        for (int col = 0; col < 3; col++)
            settle(s, keys, col, sweeps, freezes, z, zh);
        for (int k = 0; k < 2; k++)
            keys[KEY1 + k] = key_from_columns(s, keys, k, salt, misc);
        return;
    }
    const Block m = decode(s, code);
    const int c = m.c, dst = m.dst, src = m.src, i = m.i, length = m.length, j = m.j;
    const int8_t *scol = s + COLS + COL_CAP * src;
    int8_t *dcol = s + COLS + COL_CAP * dst;
    int old_frozen = s[FROZEN];
    /* the block's hash is multiplied by R^(j - i), its height change */
    uint64_t pow1 = misc[MISC_POW + COL_CAP + j - i], pow2 = misc[MISC_SIZE + MISC_POW + COL_CAP + j - i];
    /* block sums from the BELOW entries of its first card c, before they change */
    uint64_t below_z1 = keys[BELOW_Z + c], below_z2 = keys[BELOW_Z + 52 + c];
    uint64_t dst_z1 = keys[dst] - zh[s[HID + dst]];
    uint64_t dst_z2 = keys[7 + dst] - zh[COL_CAP + s[HID + dst]];
    for (int a = i; a < length; a++) { /* one pass for the cards and both key sets */
        int card = scol[a];
        keys[BELOW_Z + card] = dst_z1 + (keys[BELOW_Z + card] - below_z1) * pow1;
        keys[BELOW_Z + 52 + card] = dst_z2 + (keys[BELOW_Z + 52 + card] - below_z2) * pow2;
        int b = j + a - i;
        dcol[b] = (int8_t)card;
        s[LOCCOL + card] = (int8_t)dst;
        s[LOCIDX + card] = (int8_t)b;
    }
    int hid = s[HID + src];
    for (int k = 0; k < 2; k++) {
        uint64_t below_z = k == 0 ? below_z1 : below_z2;
        uint64_t block_z = keys[7 * k + src] - zh[COL_CAP * k + hid] - below_z;
        keys[7 * k + src] -= block_z;
        keys[7 * k + dst] += block_z * (k == 0 ? pow1 : pow2);
    }
    s[LEN + src] = (int8_t)i;
    s[LEN + dst] = (int8_t)(j + length - i);
    settle(s, keys, src, sweeps, freezes, z, zh);
    settle(s, keys, dst, sweeps, freezes, z, zh);
    /* only two column terms of the key sums change (the tail state, hence the slots, does not) */
    int ss = slot(s, src), ds = slot(s, dst);
    for (int k = 0; k < 2; k++) {
        uint64_t new_src = mix(keys[7 * k + src] + salt[8 * k + ss]);
        uint64_t new_dst = mix(keys[7 * k + dst] + salt[8 * k + ds]);
        keys[KEY1 + k] += (new_src - keys[MIXED + 7 * k + src]) + (new_dst - keys[MIXED + 7 * k + dst]);
        keys[MIXED + 7 * k + src] = new_src;
        keys[MIXED + 7 * k + dst] = new_dst;
    }
    int frozen = s[FROZEN];
    if (frozen != old_frozen) {
        for (int suit = 0; suit < 4; suit++) {
            if (((frozen >> suit) & 1) && !((old_frozen >> suit) & 1)) {
                keys[KEY1] += misc[1 + suit];
                keys[KEY2] += misc[MISC_SIZE + 1 + suit];
            }
        }
    }
}

/* A child's keys the long way: make the move on the scratch frame (rare). */
static __attribute__((noinline)) void keys_by_making(const int8_t *restrict s, const uint64_t *restrict keys,
                                                     unsigned code, State scratch, Keys scratch_keys,
                                                     int64_t sweeps, int64_t freezes, Table z, Table zh,
                                                     Table salt, Table misc, uint64_t *k1, uint64_t *k2)
{
    copy_row(scratch, s, STATE_SIZE);
    copy_row(scratch_keys, keys, KEYS_SIZE * sizeof(uint64_t));
    make_move(scratch, scratch_keys, code, sweeps, freezes, z, zh, salt, misc);
    *k1 = scratch_keys[KEY1];
    *k2 = scratch_keys[KEY2];
}

/* The two keys of the position after code, without making the move on s (kernel.child_keys). */
static inline void child_keys(const int8_t *restrict s, const uint64_t *restrict keys, unsigned code,
                              State scratch, Keys scratch_keys, int64_t sweeps, int64_t freezes, Table z,
                              Table zh, Table salt, Table misc, uint64_t *k1, uint64_t *k2)
{
    if (UNLIKELY(code == TAIL_CODE)) {
        keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc, k1, k2);
        return;
    }
    const Block m = decode(s, code);
    const int c = m.c, dst = m.dst, src = m.src, i = m.i, length = m.length, j = m.j;
    const int8_t *scol = s + COLS + COL_CAP * src;
    if (sweeps || freezes) {
        /* a run can complete only where an Ace comes to lie on top with its King twelve cards below */
        int top = scol[length - 1];
        int king_at = j + length - i - 13; /* height of the would-be King in dst after the move */
        if (rank(top) == 0 && king_at >= 0) {
            int king = king_at >= j ? scol[i + king_at - j] : s[COLS + COL_CAP * dst + king_at];
            if (king == top + 12) {
                keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc, k1, k2);
                return;
            }
        }
        if (i >= 13 && rank(scol[i - 1]) == 0 && scol[i - 13] == scol[i - 1] + 12) {
            keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc, k1, k2);
            return;
        }
    }
    /* O(1) in the block's size (see kernel.py's docstring) */
    int pow_at = MISC_POW + COL_CAP + j - i; /* R^(j - i) */
    uint64_t below_z1 = keys[BELOW_Z + c], below_z2 = keys[BELOW_Z + 52 + c];
    int hid = s[HID + src];
    uint64_t hd1 = keys[dst] + (keys[src] - zh[hid] - below_z1) * misc[pow_at];
    uint64_t hd2 = keys[7 + dst] + (keys[7 + src] - zh[COL_CAP + hid] - below_z2) * misc[MISC_SIZE + pow_at];
    /* src's new top flips when all the cards under c are face down (branch-free) */
    hid -= (i > 0) & (hid == i);
    uint64_t hs1 = zh[hid] + below_z1;
    uint64_t hs2 = zh[COL_CAP + hid] + below_z2;
    int ss = slot(s, src), ds = slot(s, dst);
    *k1 = keys[KEY1] + (mix(hs1 + salt[ss]) - keys[MIXED + src]) + (mix(hd1 + salt[ds]) - keys[MIXED + dst]);
    *k2 = keys[KEY2] + ((mix(hs2 + salt[8 + ss]) - keys[MIXED + 7 + src])
                        + (mix(hd2 + salt[8 + ds]) - keys[MIXED + 7 + dst]));
}

/* ------------------------------------------------------------------------- */
/* deadlock detection (kernel._can_become_top, _space_by_chains, _deadlocked) */

/* The successor-above rule (kernel._successor_free): may y + 1 be a top y can lead onto? Not while
 * y + 1 lies above y in y's column and none of the cards from just above y up to y + 1 has left. */
static inline int successor_free(const int8_t *restrict s, const int8_t *restrict info, int y)
{
    int t = y + 1;
    int col = s[LOCCOL + t];
    if (col < 0 || col != s[LOCCOL + y])
        return 1;
    int lo = s[LOCIDX + y], hi = s[LOCIDX + t];
    if (hi < lo)
        return 1;
    const int8_t *column = s + COLS + COL_CAP * col;
    for (int h = lo + 1; h <= hi; h++)
        if (info[column[h]] & F_LEFT)
            return 1;
    return 0;
}

static inline int can_become_top(const int8_t *restrict s, uint8_t *restrict can_top, int8_t *restrict scratch,
                                 int64_t sweeps, int64_t space_any, int stop_when_met, int stop_at_space,
                                 int successor_above)
{
    int8_t *restrict info = scratch;
    int8_t *restrict under = scratch + 64;
    int8_t *restrict pending = scratch + 128; /* worklist (256 entries) */
    memset(can_top, 0, 52);
    memset(info, 0, 52);
    int space = 0;
    uint64_t required = 0; /* bit c: card c must become a top (stop_when_met only) */
    uint64_t required_left = 0; /* bit c: card c must leave (successor_above and stop_when_met only) */
    for (int col = 0; col < 7; col++) {
        int length = s[LEN + col];
        const int8_t *column = s + COLS + COL_CAP * col;
        if (length == 0) {
            space = 1;
            continue;
        }
        int hid = s[HID + col];
        int floor = s[FLOOR + col];
        /* branch-free: the card read above the top is a leftover inside the state vector, masked out */
        int below = -1;
        for (int idx = 0; idx < length; idx++) {
            int y = column[idx];
            int down = idx < hid;
            int queen_on = (idx + 1 < length) & (column[idx + 1] == y - 1);
            info[y] = (int8_t)(F_ON_TABLE | (F_STUCK * (idx < floor)) | (F_DOWN * down) | (F_BOTTOM * (idx == 0))
                               | (F_QUEEN_ON * queen_on));
            under[y] = (int8_t)below;
            uint64_t off_successor = (rank(y) != 12) & (below != y + 1);
            required |= ((uint64_t)down << y) | (off_successor << (y + 1));
            required_left |= (off_successor & (uint64_t)(successor_above != 0)) << y;
            below = y;
        }
    }
    for (int t = 0; t < 3; t++) {
        int c = s[TAIL + t];
        if (c >= 0 && rank(c) != 12)
            required |= 1ULL << (c + 1);
    }
    int n = 0;
    for (int col = 0; col < 10; col++) {
        int t;
        if (col < 7) {
            int length = s[LEN + col];
            if (length == 0)
                continue;
            t = s[COLS + COL_CAP * col + length - 1];
        } else {
            t = s[TAIL + col - 7];
            if (t < 0)
                continue;
        }
        can_top[t] = 1;
        required &= ~(1ULL << t);
        pending[n++] = (int8_t)t;
        if (rank(t) != 0)
            pending[n++] = (int8_t)(t - 1);
    }
    if (stop_when_met && required == 0 && required_left == 0)
        return LFP_PASSES;
    for (int king = 12; king < 52; king += 13)
        pending[n++] = (int8_t)king;
    if (space && space_any == 1)
        for (int k = 0; k < 52; k++)
            pending[n++] = (int8_t)k;
    uint64_t blocked = 0; /* bit y: y + 1 can become a top, but only above y in y's column */
    for (;;) {
        if (n == 0 && blocked != 0)
            for (int y = 0; y < 52; y++)
                if (((blocked >> y) & 1) && successor_free(s, info, y)) {
                    blocked &= ~(1ULL << y);
                    pending[n++] = (int8_t)y;
                }
        if (n == 0)
            break;
        while (n > 0) {
            int y = pending[--n];
            int flags = info[y];
            if (flags == 0 || (flags & (F_STUCK | F_LEFT)))
                continue;
            if ((flags & F_DOWN) && !can_top[y])
                continue;
            int bottom = (flags & F_BOTTOM) != 0;
            int leaves;
            if (rank(y) == 12)
                leaves = (sweeps && (can_top[y] || (flags & F_QUEEN_ON) != 0)) || (space && !bottom);
            else {
                leaves = can_top[y + 1] && (!successor_above || successor_free(s, info, y));
                if (successor_above && can_top[y + 1] && !leaves)
                    blocked |= 1ULL << y;
                leaves = leaves || (space_any == 1 && space && !bottom);
            }
            if (!leaves)
                continue;
            info[y] = (int8_t)(flags | F_LEFT);
            if (stop_when_met && required_left != 0) {
                required_left &= ~(1ULL << y);
                if (required == 0 && required_left == 0)
                    return LFP_PASSES;
            }
            if (bottom) {
                if (!space) {
                    if (stop_at_space)
                        return LFP_PASSES;
                    space = 1;
                    for (int k = 0; k < 52; k++)
                        if ((rank(k) == 12 || space_any == 1) && info[k] && !(info[k] & F_LEFT))
                            pending[n++] = (int8_t)k;
                }
            } else {
                int x = under[y];
                if (!can_top[x]) {
                    can_top[x] = 1;
                    if (stop_when_met) {
                        required &= ~(1ULL << x);
                        if (required == 0 && required_left == 0)
                            return LFP_PASSES;
                    }
                    pending[n++] = (int8_t)x;
                    if (rank(x) != 0)
                        pending[n++] = (int8_t)(x - 1);
                }
            }
        }
    }
    return space ? LFP_SPACE : LFP_NO_SPACE;
}

/* Does the group of build `code` (made from s) hold the successor of a card of its destination
 * column (kernel._lands_over_predecessor)? */
static inline int lands_over_predecessor(const int8_t *restrict s, unsigned code)
{
    int c = (int)(code >> 3), dst = (int)(code & 7);
    int src = s[LOCCOL + c];
    const int8_t *column = s + COLS + COL_CAP * src;
    for (int k = s[LOCIDX + c]; k < s[LEN + src]; k++) {
        int g = column[k];
        if (rank(g) != 0 && s[LOCCOL + g - 1] == dst)
            return 1;
    }
    return 0;
}

#define CHAIN_STEPS 12 /* links followed from a column's bottom card before leaving it to the full test */

/* Does the deadlock test surely derive "a column can become empty"? Follows, from each
 * face-up unfrozen bottom card, the one chain of the test's own steps that decides it
 * (kernel._space_by_chains); no answer (0) when the chain meets anything else. */
static inline int space_by_chains(const int8_t *restrict s, int64_t sweeps, int successor_above)
{
    for (int col = 0; col < 7; col++) {
        int length = s[LEN + col];
        if (length == 0 || s[HID + col] > 0 || s[FLOOR + col] > 0)
            continue;
        const int8_t *column = s + COLS + COL_CAP * col;
        int b = column[0];
        if (rank(b) == 12) {
            if (sweeps && (length == 1 || column[1] == b - 1))
                return 1;
            continue;
        }
        int t = b + 1;
        if (successor_above && s[LOCCOL + t] == col)
            continue;
        for (int step = 0; step < CHAIN_STEPS; step++) {
            int where = s[LOCCOL + t];
            if (where < 0) {
                if (s[TAIL] == t || s[TAIL + 1] == t || s[TAIL + 2] == t)
                    return 1;
                break;
            }
            int above = s[LOCIDX + t] + 1;
            int wlen = s[LEN + where];
            if (above == wlen)
                return 1; /* t is a top */
            if (above < s[HID + where] || above < s[FLOOR + where])
                break;
            const int8_t *wcol = s + COLS + COL_CAP * where;
            int y = wcol[above];
            if (rank(y) == 12) {
                if (sweeps && (above + 1 == wlen || wcol[above + 1] == y - 1))
                    return 1; /* y leaves by sweeping: it is a top, or its Queen is on it */
                break;
            }
            t = y + 1;
            if (successor_above && s[LOCCOL + t] == where && s[LOCIDX + t] > above)
                break;
        }
    }
    return 0;
}

/* True when the position is provably lost (kernel._deadlocked). */
static __attribute__((noinline)) int deadlocked(const int8_t *restrict s, uint8_t *restrict can_top,
                                                int8_t *restrict scratch, int64_t sweeps, int64_t space_any,
                                                int took_last_space, int successor_above)
{
    if (can_become_top(s, can_top, scratch, sweeps, space_any, 1, took_last_space, successor_above) == LFP_PASSES)
        return 0;
    const int8_t *info = scratch;
    const int8_t *under = scratch + 64;
    for (int y = 0; y < 52; y++) {
        int flags = info[y];
        if (flags == 0)
            continue; /* tail cards are checked below; swept cards need nothing */
        if ((flags & F_DOWN) && !can_top[y])
            return 1; /* a face-down card that can never be turned up */
        if (rank(y) == 12)
            continue;
        if (!(flags & F_BOTTOM) && under[y] == y + 1)
            continue; /* already on its successor */
        if (can_top[y + 1] && (!successor_above || (flags & F_LEFT)))
            continue;
        return 1; /* its successor can never again be a top */
    }
    for (int t = 0; t < 3; t++) {
        int c = s[TAIL + t];
        if (c >= 0 && rank(c) != 12 && !can_top[c + 1])
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* transposition table                                                        */

/* Insert (k1, k2) unless present; return 1 when it was already there. */
static inline int probe_insert(uint64_t *restrict table, uint64_t mask, uint64_t k1, uint64_t k2)
{
    k2 |= 1;
    uint64_t i = k1 & mask;
    for (;;) {
        uint64_t b = table[2 * i + 1];
        if (b == 0) {
            table[2 * i] = k1;
            table[2 * i + 1] = k2;
            return 0;
        }
        if (b == k2 && table[2 * i] == k1)
            return 1;
        i = (i + 1) & mask;
    }
}

/* ------------------------------------------------------------------------- */
/* search                                                                     */

/* The search's counters, kept in locals (registers) and written back on return. */
typedef struct {
    int64_t nodes, entries, prunes, maxdepth, makes, checks;
} Count;

/* Insert the children start..n-1 of the node at level and keep the new ones (kernel._probe_rest). */
static inline void probe_rest(uint64_t *restrict table, uint64_t mask, uint16_t *restrict moves,
                              int64_t *restrict nmoves, Count *restrict cnt, const uint64_t *restrict found_keys,
                              int64_t level, int64_t start, int64_t n)
{
    const uint64_t *fk = found_keys + 2 * (level & 1) * MAX_MOVES;
    uint16_t *row = moves + level * MAX_MOVES;
    int64_t kept = nmoves[level];
    for (int64_t j = start; j < n; j++) {
        int is_new = !probe_insert(table, mask, fk[2 * j], fk[2 * j + 1]);
        row[kept] = row[j]; /* branch-free keep (kept <= j) */
        kept += is_new;
    }
    cnt->nodes += kept - nmoves[level];
    cnt->entries += kept - nmoves[level];
    nmoves[level] = kept;
}

static inline int64_t finish(int64_t *restrict counters, const Count *cnt, int64_t sp, int64_t status)
{
    counters[C_NODES] = cnt->nodes;
    counters[C_ENTRIES] = cnt->entries;
    counters[C_PRUNES] = cnt->prunes;
    counters[C_MAXDEPTH] = cnt->maxdepth;
    counters[C_MAKES] = cnt->makes;
    counters[C_CHECKS] = cnt->checks;
    counters[C_SP] = sp;
    return status;
}

/* kernel.search on the same arrays (all C-contiguous): states (depth_cap, 584) int8, keys
 * (depth_cap, 256) uint64, moves (depth_cap, 256) uint16, nmoves and midx (depth_cap) int64,
 * table (table_cap, 2) uint64 with table_cap a power of two, counters (8) int64, z (2, 3328),
 * zh (2, 64), salt (2, 8), misc (2, 164) uint64, can_top (52) bool, found_keys (512, 2) uint64,
 * dead_scratch (384) int8. Returns the status code; resumable exactly as kernel.search. */
int64_t scorpion_search(int8_t *restrict states, uint64_t *restrict keys, uint16_t *restrict moves,
                        int64_t *restrict nmoves, int64_t *restrict midx, int64_t depth_cap,
                        uint64_t *restrict table, int64_t table_cap, int64_t *restrict counters,
                        int64_t node_limit, int64_t max_entries, int64_t sweeps, int64_t freezes,
                        int64_t space_any, int64_t tail_when_stuck, int64_t prune, const uint64_t *restrict z,
                        const uint64_t *restrict zh, const uint64_t *restrict salt,
                        const uint64_t *restrict misc, uint8_t *restrict can_top,
                        uint64_t *restrict found_keys, int8_t *restrict dead_scratch)
{
    const uint64_t mask = (uint64_t)table_cap - 1;
    Count cnt = {counters[C_NODES], counters[C_ENTRIES], counters[C_PRUNES],
                 counters[C_MAXDEPTH], counters[C_MAKES], counters[C_CHECKS]};
    int64_t sp = counters[C_SP];
    int expand;
    if (sp < 0) {
        probe_insert(table, mask, keys[KEY1], keys[KEY2]);
        cnt.nodes = 1;
        cnt.entries = 1;
        if (is_won(states, sweeps))
            return finish(counters, &cnt, 0, S_WON);
        if (prune & PRUNE_DEADLOCK) {
            cnt.checks++;
            if (deadlocked(states, can_top, dead_scratch, sweeps, space_any, 0, (prune & PRUNE_SUCCESSOR_ABOVE) != 0)) {
                cnt.prunes++;
                counters[C_DEAD_ROOT] = 1;
                return finish(counters, &cnt, 0, S_LOST);
            }
        }
        sp = 0;
        expand = 1;
    } else {
        expand = 0;
    }
    int fresh = 0;
    int64_t pend_level = -1, pend_from = 0, pend_n = 0; /* children not yet probed */
    for (;;) {
        if (expand) {
            /* kernel._expand: every child's keys first (prefetching its table row),
             * then the probes, stopping at the first new child */
            const int8_t *s = states + sp * STATE_SIZE;
            const uint64_t *s_keys = keys + sp * KEYS_SIZE;
            int8_t *next = states + (sp + 1) * STATE_SIZE;
            uint64_t *next_keys = keys + (sp + 1) * KEYS_SIZE;
            uint16_t *out = moves + sp * MAX_MOVES;
            uint64_t *fk = found_keys + 2 * (sp & 1) * MAX_MOVES; /* the parent's pending keys are in the other half */
            int n = generate_moves(s, out, space_any, tail_when_stuck, sweeps);
            if ((prune & PRUNE_SAFE_LEADS) && s[DEALT] == 1 && space_any == 0 && freezes == 0)
                for (int j = 0; j < n; j++)
                    if (safe_lead(s, out[j])) {
                        out[0] = out[j];
                        n = 1;
                        break;
                    }
            for (int j = 0; j < n; j++) {
                uint64_t k1, k2;
                child_keys(s, s_keys, out[j], next, next_keys, sweeps, freezes, z, zh, salt, misc, &k1, &k2);
                fk[2 * j] = k1;
                fk[2 * j + 1] = k2;
                __builtin_prefetch(table + 2 * (k1 & mask), 0, 3);
            }
            /* the first child popped next starts from this copy; made here, it overlaps the probes' misses */
            copy_row(next, s, STATE_SIZE);
            copy_row(next_keys, s_keys, KEYS_SIZE * sizeof(uint64_t));
            if (pend_level >= 0)
                probe_rest(table, mask, moves, nmoves, &cnt, found_keys, pend_level, pend_from, pend_n);
            cnt.makes += n;
            nmoves[sp] = 0;
            midx[sp] = 0;
            pend_level = -1;
            for (int j = 0; j < n; j++) {
                if (probe_insert(table, mask, fk[2 * j], fk[2 * j + 1]))
                    continue;
                out[0] = out[j];
                nmoves[sp] = 1;
                cnt.nodes++;
                cnt.entries++;
                if (j + 1 < n) {
                    pend_level = sp;
                    pend_from = j + 1;
                    pend_n = n;
                }
                break;
            }
            expand = 0;
            fresh = 1; /* states[sp + 1] / keys[sp + 1] hold a copy of the frame at sp */
        }
        if (pend_level >= 0) {
            /* probe the pending children now unless the next step pops the first new child
             * of the node just expanded and no limit can be reached even if all are new */
            int64_t waiting = pend_n - pend_from;
            if (!fresh || sp + 2 >= depth_cap || cnt.entries + waiting + MAX_MOVES > max_entries
                || cnt.nodes + waiting >= node_limit) {
                probe_rest(table, mask, moves, nmoves, &cnt, found_keys, pend_level, pend_from, pend_n);
                pend_level = -1;
            }
        }
        if (midx[sp] == nmoves[sp]) {
            sp--;
            fresh = 0;
            if (sp < 0)
                return finish(counters, &cnt, 0, S_LOST);
            continue;
        }
        if (UNLIKELY(sp + 2 >= depth_cap))
            return finish(counters, &cnt, sp, S_DEEPER);
        if (UNLIKELY(cnt.entries + MAX_MOVES > max_entries))
            return finish(counters, &cnt, sp, S_GROW);
        if (UNLIKELY(cnt.nodes >= node_limit))
            return finish(counters, &cnt, sp, S_NODES);
        const int8_t *parent = states + sp * STATE_SIZE;
        int8_t *child = states + (sp + 1) * STATE_SIZE;
        uint64_t *child_keys_row = keys + (sp + 1) * KEYS_SIZE;
        unsigned code = moves[sp * MAX_MOVES + midx[sp]];
        midx[sp]++;
        if (!fresh) {
            copy_row(child, parent, STATE_SIZE);
            copy_row(child_keys_row, keys + sp * KEYS_SIZE, KEYS_SIZE * sizeof(uint64_t));
        }
        fresh = 0;
        make_move(child, child_keys_row, code, sweeps, freezes, z, zh, salt, misc);
        if (UNLIKELY(is_won(child, sweeps))) {
            if (pend_level >= 0) /* for exact counts */
                probe_rest(table, mask, moves, nmoves, &cnt, found_keys, pend_level, pend_from, pend_n);
            return finish(counters, &cnt, sp + 1, S_WON);
        }
        if (prune & PRUNE_DEADLOCK) {
            int check = 0;
            int took_last_space = 0;
            int successor_above = (prune & PRUNE_SUCCESSOR_ABOVE) != 0;
            if (code == TAIL_CODE) {
                check = 1;
            } else {
                int dst = code & 7;
                if (child[FROZEN] != parent[FROZEN]) {
                    check = 1;
                } else if (successor_above && lands_over_predecessor(parent, code)) {
                    check = 1;
                } else if (parent[LEN + dst] == 0 && parent[LOCIDX + (code >> 3)] > 0) {
                    /* into a space, leaving cards behind; only worse when it took the last space */
                    took_last_space = 1;
                    for (int col = 0; col < 7; col++) {
                        if (child[LEN + col] == 0) {
                            took_last_space = 0;
                            break;
                        }
                    }
                    check = took_last_space;
                }
            }
            if (check) {
                cnt.checks++;
                if (took_last_space && space_by_chains(child, sweeps, successor_above)) {
                    /* took the last space, but a column can plainly empty again: passes */
                } else if (deadlocked(child, can_top, dead_scratch, sweeps, space_any, took_last_space,
                                      successor_above)) {
                    cnt.prunes++;
                    continue;
                }
            }
        }
        sp++;
        if (sp > cnt.maxdepth)
            cnt.maxdepth = sp;
        expand = 1;
    }
}

/* scorpion_search with its 23 arguments packed in one int64 vector, in order (pointers as
 * integers): one argument is much cheaper to pass through ctypes than 23. */
int64_t scorpion_search_packed(const int64_t *a)
{
    return scorpion_search((int8_t *)(intptr_t)a[0], (uint64_t *)(intptr_t)a[1], (uint16_t *)(intptr_t)a[2],
                           (int64_t *)(intptr_t)a[3], (int64_t *)(intptr_t)a[4], a[5], (uint64_t *)(intptr_t)a[6],
                           a[7], (int64_t *)(intptr_t)a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15],
                           (const uint64_t *)(intptr_t)a[16], (const uint64_t *)(intptr_t)a[17],
                           (const uint64_t *)(intptr_t)a[18], (const uint64_t *)(intptr_t)a[19],
                           (uint8_t *)(intptr_t)a[20], (uint64_t *)(intptr_t)a[21], (int8_t *)(intptr_t)a[22]);
}
