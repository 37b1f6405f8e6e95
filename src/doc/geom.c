/* geom.c: layout arithmetic without a surface; see geom.h. */
#include "doc/geom.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rbox rbox_make(double x, double y, double w, double h)
{
	struct rbox b = { x, y, w > 0 ? w : 0, h > 0 ? h : 0 };
	return b;
}

struct rbox rbox_inset(struct rbox b, double t, double r, double bottom, double l)
{
	return rbox_make(b.x + l, b.y + t, b.w - l - r, b.h - t - bottom);
}

struct rbox rbox_cut_top(struct rbox *b, double h)
{
	if (h > b->h)
		h = b->h;
	struct rbox s = rbox_make(b->x, b->y, b->w, h);
	b->y += h;
	b->h -= h;
	return s;
}

struct rbox rbox_cut_bottom(struct rbox *b, double h)
{
	if (h > b->h)
		h = b->h;
	b->h -= h;
	return rbox_make(b->x, b->y + b->h, b->w, h);
}

struct rbox rbox_cut_left(struct rbox *b, double w)
{
	if (w > b->w)
		w = b->w;
	struct rbox s = rbox_make(b->x, b->y, w, b->h);
	b->x += w;
	b->w -= w;
	return s;
}

struct rbox rbox_cut_right(struct rbox *b, double w)
{
	if (w > b->w)
		w = b->w;
	b->w -= w;
	return rbox_make(b->x + b->w, b->y, w, b->h);
}

struct rbox rbox_grid_cell(struct rbox b, int rows, int cols, int row, int col,
			   double gap_x, double gap_y)
{
	if (rows < 1) rows = 1;
	if (cols < 1) cols = 1;
	double cw = (b.w - gap_x * (cols - 1)) / cols;
	double ch = (b.h - gap_y * (rows - 1)) / rows;
	return rbox_make(b.x + col * (cw + gap_x), b.y + row * (ch + gap_y), cw, ch);
}

void grid_shape(int n, double box_w, double box_h, int *rows, int *cols)
{
	int best_r = 1, best_c = n > 0 ? n : 1;
	double best = 1e300;
	if (n < 1)
		n = 1;
	for (int c = 1; c <= n; c++) {
		int r = (n + c - 1) / c;
		if ((r - 1) * c >= n) /* a whole empty row */
			continue;
		double aspect = (box_w / c) / (box_h / r);
		double cost = fabs(log(aspect / (4.0 / 3.0))) + 0.6 * (r * c - n);
		if (cost < best) {
			best = cost;
			best_r = r;
			best_c = c;
		}
	}
	*rows = best_r;
	*cols = best_c;
}

struct rbox rbox_fit(struct rbox b, double ratio)
{
	double w = b.w, h = b.w * ratio;
	if (h > b.h) {
		h = b.h;
		w = h / ratio;
	}
	return rbox_make(b.x + (b.w - w) / 2, b.y + (b.h - h) / 2, w, h);
}

/* ---- axes ------------------------------------------------------------ */

double nice_step(double span, int target)
{
	if (!(span > 0) || !isfinite(span))
		return 1;
	if (target < 1)
		target = 1;
	double raw = span / target;
	double mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
	return nice * mag;
}

void axis_linear(struct axis *a, double lo, double hi, int target, int include_zero)
{
	memset(a, 0, sizeof(*a));
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (lo > hi) {
		double t = lo; lo = hi; hi = t;
	}
	if (include_zero) {
		if (lo > 0) lo = 0;
		if (hi < 0) hi = 0;
	}
	if (hi - lo < 1e-12 * (fabs(hi) + fabs(lo)) || hi == lo) {
		double pad = lo == 0 ? 1 : fabs(lo) * 0.1;
		if (!include_zero || lo < 0) lo -= pad;
		hi += pad;
	}
	double step = nice_step(hi - lo, target);
	a->lo = floor(lo / step + 1e-9) * step;
	a->hi = ceil(hi / step - 1e-9) * step;
	/* Too many intervals after rounding (a tight target): coarsen. */
	while ((a->hi - a->lo) / step > AXIS_MAX_TICKS - 1) {
		step = nice_step(a->hi - a->lo, target / 2 > 0 ? target / 2 : 1);
		a->lo = floor(lo / step + 1e-9) * step;
		a->hi = ceil(hi / step - 1e-9) * step;
	}
	for (double v = a->lo; v <= a->hi + step * 1e-6 && a->nticks < AXIS_MAX_TICKS; v += step)
		a->ticks[a->nticks++] = fabs(v) < step * 1e-9 ? 0 : v;
}

void axis_log(struct axis *a, double lo, double hi, int base, int max_ticks)
{
	memset(a, 0, sizeof(*a));
	if (base != 2)
		base = 10;
	if (max_ticks < 2)
		max_ticks = 2;
	if (max_ticks > AXIS_MAX_TICKS)
		max_ticks = AXIS_MAX_TICKS;
	if (!(lo > 0) || !isfinite(lo))
		lo = hi > 0 && isfinite(hi) ? hi / base : 1;
	if (!(hi > 0) || !isfinite(hi))
		hi = lo * base;
	if (lo > hi) {
		double t = lo; lo = hi; hi = t;
	}
	double lb = log((double)base);
	int e0 = (int)floor(log(lo) / lb + 1e-9);
	int e1 = (int)ceil(log(hi) / lb - 1e-9);
	if (e1 <= e0)
		e1 = e0 + 1;
	a->log = 1;
	a->log_base = base;
	a->lo = pow(base, e0);
	a->hi = pow(base, e1);
	int every = 1;
	while ((e1 - e0) / every + 1 > max_ticks)
		every++;
	/* Align stepped ticks on multiples of the step so they read regularly. */
	int start = e0;
	while (((start % every) + every) % every)
		start++;
	for (int e = start; e <= e1 && a->nticks < AXIS_MAX_TICKS; e += every)
		a->ticks[a->nticks++] = pow(base, e);
	if (base == 10 && e1 - e0 < 4) {
		for (int e = e0; e < e1; e++)
			for (int m = 2; m <= 9 && a->nminor < AXIS_MAX_TICKS * 2; m++)
				a->minor[a->nminor++] = m * pow(10, e);
	} else if (every > 1) {
		for (int e = e0; e <= e1 && a->nminor < AXIS_MAX_TICKS * 2; e++)
			if (((e % every) + every) % every)
				a->minor[a->nminor++] = pow(base, e);
	}
}

double axis_map(const struct axis *a, double v, double p0, double p1)
{
	double t;
	if (a->log) {
		if (!(v > 0))
			v = a->lo;
		t = (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	} else {
		t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0;
	}
	if (!isfinite(t))
		t = 0;
	if (t < 0) t = 0;
	if (t > 1) t = 1;
	return p0 + t * (p1 - p0);
}

void bar_slot(double x0, double x1, int ngroups, int g, int nseries, int s,
	      double group_fill, double *bx, double *bw)
{
	if (ngroups < 1) ngroups = 1;
	if (nseries < 1) nseries = 1;
	double gw = (x1 - x0) / ngroups;
	double inner = gw * group_fill;
	double gx = x0 + g * gw + (gw - inner) / 2;
	*bw = inner / nseries;
	*bx = gx + s * *bw;
}

/* ---- waves ------------------------------------------------------------- */

int wave_plan(struct wave_plan *w, long long blocks, int sm_count, int per_sm)
{
	memset(w, 0, sizeof(*w));
	if (blocks <= 0 || sm_count <= 0 || per_sm <= 0)
		return -1;
	long long slots = (long long)sm_count * per_sm;
	if ((blocks - 1) / slots + 1 > INT_MAX)
		return -1; /* more waves than an int counts: a grid past any GPU's */
	w->blocks = blocks;
	w->sm_count = sm_count;
	w->per_sm = per_sm;
	w->waves = (int)((blocks + slots - 1) / slots);
	w->waves_exact = (double)blocks / (double)slots;
	w->last_blocks = blocks - (long long)(w->waves - 1) * slots;
	w->last_busy_sms = w->last_blocks < sm_count ? (int)w->last_blocks : sm_count;
	w->idle_sms_last = sm_count - w->last_busy_sms;
	w->utilisation = (double)blocks / ((double)w->waves * slots);
	return 0;
}

int wave_sm_blocks(const struct wave_plan *w, int wave, int sm)
{
	if (wave < 0 || wave >= w->waves || sm < 0 || sm >= w->sm_count)
		return 0;
	if (wave < w->waves - 1)
		return w->per_sm;
	/* Breadth-first: round r gives one block to each of the first SMs. */
	long long r = w->last_blocks;
	long long full = r / w->sm_count, rest = r % w->sm_count;
	return (int)(full + (sm < rest ? 1 : 0));
}

int blocks_per_sm_from_occupancy(double occupancy, int warps_per_block, int max_warps)
{
	if (!(occupancy > 0) || warps_per_block <= 0 || max_warps <= 0)
		return 1;
	if (occupancy > 1) /* a results file's number: bounded before the cast */
		occupancy = 1;
	int k = (int)floor(occupancy * max_warps / warps_per_block + 0.5);
	return k < 1 ? 1 : k;
}

/* ---- labels ------------------------------------------------------------ */

const char *fmt_sig(double v, int sig, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	double av = fabs(v);
	if (av < 1e-3 || av >= 1e6) {
		snprintf(buf, len, "%.*e", sig > 1 ? sig - 1 : 0, v);
		return buf;
	}
	int mag = (int)floor(log10(av));
	int dec = sig - 1 - mag;
	if (dec < 0) dec = 0;
	snprintf(buf, len, "%.*f", dec, v);
	/* 9.995 with 3 digits prints 10.00: redo with one decimal fewer */
	if (dec > 0 && fabs(atof(buf)) >= pow(10, mag + 1)) {
		snprintf(buf, len, "%.*f", dec - 1, v);
	}
	return buf;
}

/* v in the largest unit it reaches (k of one make the next); "n/a" when
 * not finite. */
static const char *scaled(double v, const char *const *units, int nunits, double k,
			  const char *sep, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	int u = 0;
	double av = fabs(v);
	while (u < nunits - 1 && av >= k * 0.9995) {
		av /= k;
		v /= k;
		u++;
	}
	char num[32];
	if (u == 0 && v == floor(v) && av < 1000)
		snprintf(num, sizeof(num), "%.0f", v); /* 42 B, 42: whole numbers stay whole */
	else
		fmt_sig(v, 3, num, sizeof(num));
	snprintf(buf, len, "%s%s%s", num, *units[u] ? sep : "", units[u]);
	return buf;
}

const char *fmt_bytes(double bytes, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	return scaled(bytes, u, 6, 1024, " ", buf, len);
}

const char *fmt_count(double v, char *buf, size_t len)
{
	static const char *const u[] = { "", "k", "M", "G", "T", "P" };
	return scaled(v, u, 6, 1000, " ", buf, len);
}

const char *fmt_seqlen(double n, char *buf, size_t len)
{
	if (n >= 1048576 && fmod(n, 1048576) == 0)
		snprintf(buf, len, "%.0fM", n / 1048576);
	else if (n >= 1024 && fmod(n, 1024) == 0)
		snprintf(buf, len, "%.0fk", n / 1024);
	else
		snprintf(buf, len, "%.0f", n);
	return buf;
}

const char *fmt_tick(double v, double step, char *buf, size_t len)
{
	if (fabs(v) < fabs(step) * 1e-9)
		v = 0;
	int dec = 0;
	if (step > 0 && step < 1)
		dec = (int)ceil(-log10(step) - 1e-9);
	if (step > 0 && fabs(step * pow(10, dec) - floor(step * pow(10, dec) + 1e-9)) > 1e-6)
		dec++; /* 2.5, 0.25 */
	if (dec > 6)
		dec = 6;
	if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-4)) {
		snprintf(buf, len, "%g", v);
		return buf;
	}
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}
