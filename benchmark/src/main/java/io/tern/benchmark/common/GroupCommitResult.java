package io.tern.benchmark.common;

/**
 * Appending at full speed while a background thread flushes every millisecond.
 *
 * @param appended what the writer appended, over the time it appended
 * @param durable the same entries over the time until the last of them was flushed: the rate at
 *     which entries became durable
 * @param flushLatency every flush that had something to flush, including the final one after the
 *     writer stopped
 * @param idleFlushCalls flush calls that found nothing new: the writer appended nothing for a whole
 *     period
 * @param writerMaxPauseNs the longest time the writer went without progress (blocked in the kernel,
 *     for example), as seen between its periodic clock reads
 */
public record GroupCommitResult(
    Throughput appended,
    Throughput durable,
    LatencySummary flushLatency,
    long idleFlushCalls,
    long writerMaxPauseNs) {}
