/* cupti_host.h: the Profiler Host API side (config images, pass counts,
 * metric evaluation), shared by the host-only validation and the session.
 * Internal to src/capture/cupti*.c. */
#ifndef ATTNPROF_CUPTI_HOST_H
#define ATTNPROF_CUPTI_HOST_H

#include <stddef.h>
#include <stdint.h>

struct cupti_host;

/* CUPTI dlopens libnvperf_host with RTLD_DEEPBIND, which AddressSanitizer
 * refuses (it aborts the process): in a SAN=1 build the host API is off and
 * says so instead. */
#if defined(__SANITIZE_ADDRESS__)
#define CUPTI_HOST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUPTI_HOST_UNDER_ASAN 1
#endif
#endif
#ifndef CUPTI_HOST_UNDER_ASAN
#define CUPTI_HOST_UNDER_ASAN 0
#endif
#define CUPTI_ASAN_REASON "CUPTI's profiler host library cannot load in an AddressSanitizer build " \
	"(it is opened with RTLD_DEEPBIND): use a build without SAN=1 for hardware counters"

/* CUPTI's name for a result code ("CUPTI_ERROR_INVALID_PARAMETER"). */
const char *cupti_result_name(int result);

/* A host object for chip; avail is the device's counter-availability image
 * (NULL off the device).  0 or -1 via error(). */
int cupti_host_open(struct cupti_host **out, const char *chip, const uint8_t *avail);
void cupti_host_close(struct cupti_host *h);

/* Add metrics and build the config image: on a bad name, -1 via error()
 * naming that metric and the chip.  *config is malloc'd. */
int cupti_host_configure(struct cupti_host *h, const char *const *metrics, size_t n,
			 uint8_t **config, size_t *config_size, int *passes);

/* Evaluate metrics for one range of a decoded counter-data image. */
int cupti_host_evaluate(struct cupti_host *h, const uint8_t *counter_data, size_t size,
			size_t range, const char *const *metrics, size_t n, double *values);

#endif
