/**
 * The machine the benchmarks run on, measured in the same run as what they benchmark, so that every
 * figure can be printed next to the machine's own limit: on the 2-core VM Tern is developed on,
 * timings drift from run to run and even from second to second, and a limit measured at another
 * time would mostly measure that drift.
 *
 * <ul>
 *   <li>{@link io.tern.benchmark.machine.RawDiskLimits}: plain {@code write(2)}, {@code read(2)},
 *       {@code fdatasync} loops on the benchmark's own directory and with the same bytes; the
 *       journal benchmark's limits, and the Raft benchmark's fdatasync and sequential-write floors.
 *   <li>{@link io.tern.benchmark.machine.ConcurrentFlushFloor}: the disk's latency when many
 *       journals flush at once, the floor under a sync-mode cluster's commit latency.
 *   <li>{@link io.tern.benchmark.machine.StallWatch}: when this process could not run at all (a
 *       host's CPU quota spent, or overloaded cores).
 *   <li>{@link io.tern.benchmark.machine.HandOffLoad}: thread wake-ups without work, to tell
 *       whether they freeze the machine when they come with fsyncs (the Raft benchmark's opt-in
 *       {@code --hand-off-probe}).
 *   <li>{@link io.tern.benchmark.machine.MachineLoad}: the CPU that other processes and the
 *       hypervisor took while a benchmark ran.
 *   <li>{@link io.tern.benchmark.machine.ProcessCpu}: this process's CPU time and heap allocation.
 *   <li>{@link io.tern.benchmark.machine.KernelSettings}: the kernel's settings that change how
 *       disk figures read (dirty page ratios, free page reporting).
 *   <li>{@link io.tern.benchmark.machine.NativeFiles}: the libc calls these need and Java lacks.
 * </ul>
 *
 * <p>Nothing here knows Tern: these classes use the JDK, JNA, Agrona and HdrHistogram, and the
 * measurement types of {@code io.tern.benchmark.common}.
 */
package io.tern.benchmark.machine;
