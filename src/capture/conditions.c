/* conditions.c: the measured GPU's facts for a results header (see
 * conditions.h); shared by the sweep driver and the injection library. */
#include "capture/conditions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/cupti.h"
#include "util/error.h"

static char *xstrdup(const char *s) { return s ? strdup(s) : NULL; }

static char *fmt_version(int v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d.%d", v / 1000, (v % 1000) / 10);
	return strdup(buf);
}

/* The kernel module's version ("580.159.04"), or NULL. */
static char *driver_version(void)
{
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	char line[512];
	char *out = NULL;
	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f)) {
		/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...":
		 * the first word made of digits and dots, with a dot, is the version. */
		for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
			if (strspn(tok, "0123456789.") == strlen(tok) && strchr(tok, '.') && tok[0] != '.') {
				out = strdup(tok);
				break;
			}
		}
	}
	fclose(f);
	return out;
}

int gpu_conditions(struct gpu_info *g, struct attn_device *d)
{
	if (attn_device_info(d))
		return error("cannot read the GPU's properties: %s", attn_last_error());
	g->name = strdup(d->name);
	g->hw = d->hw;
	/* DDR: two transfers per memory clock. */
	g->peak_hbm_gbs = 2.0 * d->hw.mem_clock_mhz * 1e6 * (d->hw.mem_bus_bits / 8.0) / 1e9;
	g->driver = driver_version();
	if (!g->driver)
		g->driver = fmt_version(d->driver_version);
	g->cuda_runtime = fmt_version(d->runtime_version);
	g->cupti = xstrdup(cupti_version_string());
	return 0;
}

void conditions_date(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

