/**
 * Zeebe exporters (issue 47, docs/exporters.md): their descriptors from the configuration, a class
 * loader per exporter jar, the {@code Context} and {@code Configuration} handed to them, the check
 * at broker start that each one loads and configures, and the director that runs them on a
 * partition's leader ({@link io.tern.engine.exporter.ExporterDirector}): the committed log read for
 * each exporter, its {@code Controller}, retries, and its position through the log ({@code
 * EXPORTER} records) into the partition's state ({@link
 * io.tern.engine.exporter.ExporterPositions}).
 *
 * <p>Uses the log, records, processor and state packages; the partition and the broker use it, not
 * the reverse (the partition hands the director a {@link io.tern.engine.exporter.DirectorHost}).
 */
package io.tern.engine.exporter;
