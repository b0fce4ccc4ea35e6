package io.tern.engine.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DiskSpaceGuardTest {
  private final AtomicLong dataFree = new AtomicLong(10_000);
  private final AtomicLong runtimeFree = new AtomicLong(10_000);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private DiskSpaceGuard guard(boolean runtimeOfItsOwn) {
    DiskSpaceGuard guard = new DiskSpaceGuard(Path.of("/data"), 1_000, dataFree::get);
    if (runtimeOfItsOwn) {
      guard.watchRuntime(Path.of("/dev/shm/tern"), 500, runtimeFree::get);
    }
    guard.registerMetrics(registry, Tags.of("partition", "1"));
    guard.check();
    return guard;
  }

  @Test
  void aFullDataDirectoryRefusesNamingItsKeyAndSpaceReturning() {
    DiskSpaceGuard guard = guard(false);
    assertThat(guard.refusal()).isNull();

    dataFree.set(999);
    guard.check();
    assertThat(guard.refusal())
        .startsWith(DiskSpaceGuard.REFUSAL_PREFIX)
        .contains("999 bytes free under /data, below data.disk.minFreeBytes (1000)");
    assertThat(registry.get("tern.disk.low").gauge().value()).isEqualTo(1);
    assertThat(registry.find("tern.disk.runtime.free.bytes").gauge()).isNull();

    dataFree.set(1_000);
    guard.check();
    assertThat(guard.refusal()).isNull();
    assertThat(registry.get("tern.disk.low").gauge().value()).isZero();
  }

  @Test
  void aFullRuntimeDirectoryOfItsOwnRefusesNamingItsKey() {
    DiskSpaceGuard guard = guard(true);
    assertThat(guard.refusal()).isNull();
    assertThat(registry.get("tern.disk.runtime.free.bytes").gauge().value()).isEqualTo(10_000);

    runtimeFree.set(499);
    guard.check();
    assertThat(guard.refusal())
        .startsWith(DiskSpaceGuard.REFUSAL_PREFIX)
        .contains("499 bytes free under /dev/shm/tern, below data.disk.runtimeMinFreeBytes (500)");
    assertThat(registry.get("tern.disk.low").gauge().value()).isEqualTo(1);
    assertThat(registry.get("tern.disk.runtime.free.bytes").gauge().value()).isEqualTo(499);

    // Both short: still refused while either is; accepted once both have room again.
    dataFree.set(10);
    guard.check();
    runtimeFree.set(10_000);
    guard.check();
    assertThat(guard.refusal()).contains("below data.disk.minFreeBytes");
    dataFree.set(10_000);
    guard.check();
    assertThat(guard.refusal()).isNull();
  }
}
