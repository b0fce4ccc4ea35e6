/**
 * Zeebe exporters (issue 47, docs/exporters.md): their descriptors from the configuration, a class
 * loader per exporter jar, the {@code Context} and {@code Configuration} handed to them, and the
 * check at broker start that each one loads and configures. In progress: records are not exported
 * yet.
 *
 * <p>Depends on nothing else of the engine: the broker uses it, not the reverse.
 */
package io.tern.engine.exporter;
