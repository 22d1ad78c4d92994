/**
 * Integer major version of the plugin contract this SDK implements.
 *
 * `definePlugin` stamps it on every plugin, and the host compares it with the
 * majors it accepts: a plugin built for another major is reported as
 * `incompatible` instead of being loaded. Adding an optional member keeps the
 * major; removing a member or changing its meaning bumps it.
 *
 * Example: a host that lists `[1]` loads plugins built with this SDK and
 * refuses one stamped `2`.
 */
export const SDK_API_VERSION = 1 as const;
