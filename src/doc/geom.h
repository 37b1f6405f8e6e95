/* geom.h: layout arithmetic of the renderer, apart from drawing.
 *
 * Everything here is plain numbers (points, 1/72 in): axis ticks (nice
 * linear steps, log ticks in base 2 or 10), value-to-position maps, layout
 * boxes (split a box into rows, columns, a grid of panels, grouped-bar
 * slots), the placement of thread blocks on SMs in waves, and the number
 * and byte formats that labels use.  No Cairo: it is unit-tested without a
 * surface (tests/unit/test_render_geom.c).
 */
#ifndef ATTNPROF_DOC_GEOM_H
#define ATTNPROF_DOC_GEOM_H

#include <stddef.h>
#include <stdint.h>

/* A box: x, y of its top-left corner, width, height (y grows down). */
struct rbox {
	double x, y, w, h;
};
struct rbox rbox_make(double x, double y, double w, double h);
/* The box less an inset on each side (t, r, b, l); never negative. */
struct rbox rbox_inset(struct rbox b, double t, double r, double bottom, double l);
/* Slice `h` off the top (or bottom) of *b: returns the slice, shrinks *b. */
struct rbox rbox_cut_top(struct rbox *b, double h);
struct rbox rbox_cut_bottom(struct rbox *b, double h);
struct rbox rbox_cut_left(struct rbox *b, double w);
struct rbox rbox_cut_right(struct rbox *b, double w);
/* Cell (row, col) of a rows × cols grid in b with gaps between cells. */
struct rbox rbox_grid_cell(struct rbox b, int rows, int cols, int row, int col,
			   double gap_x, double gap_y);
/* Rows and columns for n panels in a box of this aspect (w/h): the grid
 * that keeps panels closest to square-ish 4:3.  n ≥ 1. */
void grid_shape(int n, double box_w, double box_h, int *rows, int *cols);
/* The largest box of aspect h/w = ratio that fits in b, centred. */
struct rbox rbox_fit(struct rbox b, double ratio);

/* ---- axes ------------------------------------------------------------ */

#define AXIS_MAX_TICKS 32
struct axis {
	double lo, hi;      /* data range shown (after nice rounding) */
	int log;            /* 0 linear, else log with base log_base */
	int log_base;       /* 2 or 10 */
	int nticks;
	double ticks[AXIS_MAX_TICKS];   /* major ticks, ascending, inside [lo, hi] */
	int nminor;
	double minor[AXIS_MAX_TICKS * 2]; /* minor ticks (log axes: 2..9 × decade) */
};

/* The nice step (1, 2, 2.5 or 5 × 10^k) for about `target` intervals over span. */
double nice_step(double span, int target);
/*
 * A linear axis over [lo, hi] with about `target` intervals, widened to
 * nice multiples of the step.  include_zero forces 0 into the range (bars).
 * lo == hi is widened; non-finite inputs give [0, 1].
 */
void axis_linear(struct axis *a, double lo, double hi, int target, int include_zero);
/*
 * A log axis over [lo, hi] (both > 0), widened to whole powers of base.
 * Base 2 ticks skip powers so there are at most max_ticks of them; base 10
 * adds minor ticks at 2..9 when the range is under 4 decades.
 */
void axis_log(struct axis *a, double lo, double hi, int base, int max_ticks);
/* Position in [p0, p1] of value v (clamped to the axis range). */
double axis_map(const struct axis *a, double v, double p0, double p1);

/* ---- grouped bars ------------------------------------------------------ */

/* Slot of bar `s` of `nseries` in group `g` of `ngroups` across [x0, x1]:
 * groups are evenly spaced; group_fill of each group's width holds bars. */
void bar_slot(double x0, double x1, int ngroups, int g, int nseries, int s,
	      double group_fill, double *bx, double *bw);

/* ---- thread blocks on SMs ---------------------------------------------- */

struct wave_plan {
	long long blocks;     /* thread blocks of the launch */
	int sm_count;
	int per_sm;           /* resident blocks per SM (≥ 1) */
	int waves;            /* ⌈blocks / (sm_count · per_sm)⌉ */
	double waves_exact;   /* blocks / (sm_count · per_sm) */
	long long last_blocks; /* blocks in the last wave */
	int last_busy_sms;    /* SMs with at least one block in the last wave */
	int idle_sms_last;    /* sm_count - last_busy_sms */
	double utilisation;   /* blocks / (waves · sm_count · per_sm) */
};
/* Plan blocks breadth-first over SMs (every SM gets one before any gets a
 * second), the way the block scheduler fills an idle GPU.  0, or -1 when an
 * input is not positive. */
int wave_plan(struct wave_plan *w, long long blocks, int sm_count, int per_sm);
/* Blocks resident on SM `sm` during wave `wave` (0-based) under that plan. */
int wave_sm_blocks(const struct wave_plan *w, int wave, int sm);
/* Resident blocks per SM from the occupancy fraction and warps per block
 * (maximum warps per SM max_warps, 64 on Hopper); at least 1. */
int blocks_per_sm_from_occupancy(double occupancy, int warps_per_block, int max_warps);

/* ---- labels ------------------------------------------------------------ */

/* 1.5 GiB, 256 MiB, 12.0 KiB, 100 B: binary units, 3 significant digits. */
const char *fmt_bytes(double bytes, char *buf, size_t len);
/* 12.3 M, 1.20 G, 950 k, 42: decimal count with 3 significant digits. */
const char *fmt_count(double v, char *buf, size_t len);
/* A number with `sig` significant digits, no exponent for 1e-3 ≤ |v| < 1e6. */
const char *fmt_sig(double v, int sig, char *buf, size_t len);
/* Sequence length: 512, 1k, 2k, 16k, 1M (powers of two in k). */
const char *fmt_seqlen(double n, char *buf, size_t len);
/* An axis tick label: short form for the axis step (no trailing zeros). */
const char *fmt_tick(double v, double step, char *buf, size_t len);

#endif
