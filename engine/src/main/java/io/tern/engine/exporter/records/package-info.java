/**
 * Tern's logged records as Zeebe 8.6's exporter records ({@link
 * io.tern.engine.exporter.records.ZeebeRecordMapper}), for the exporters the broker runs (issue 47;
 * the table is in docs/exporter-records.md).
 *
 * <p>Reads the records ({@code record}), their codes ({@code protocol}) and values ({@code
 * workflow.value}); none of those know this package.
 */
package io.tern.engine.exporter.records;
