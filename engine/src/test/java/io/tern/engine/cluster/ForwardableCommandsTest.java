package io.tern.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The allow-list of commands a non-broker may send is exactly what a gateway sends. */
class ForwardableCommandsTest {
  /**
   * A command in the gateway's sources: an intent passed as an argument ({@code , YIntent.Z,} or
   * {@code , YIntent.Z)}), not compared with an answer's.
   */
  private static final Pattern COMMAND =
      Pattern.compile(",\\s*([A-Z][A-Za-z]*Intent)\\.([A-Z_]+)\\s*[,)]");

  @Test
  void theListIsWhatTheGatewaySends() throws Exception {
    Path main = Path.of("src/main/java/io/tern/engine");
    List<Path> sources;
    try (Stream<Path> gateway = Files.walk(main.resolve("gateway"))) {
      sources =
          Stream.concat(
                  gateway.filter(path -> path.toString().endsWith(".java")),
                  Stream.of(main.resolve("cluster/JobStreamForwarding.java")))
              .toList();
    }
    Set<Intent> sent = new HashSet<>();
    for (Path source : sources) {
      Matcher command = COMMAND.matcher(Files.readString(source));
      while (command.find()) {
        sent.add(intent(command));
      }
    }
    assertThat(sent).hasSizeGreaterThan(15);
    assertThat(ForwardableCommands.all()).isEqualTo(sent);
  }

  @Test
  void internalCommandsAndUnansweredClientCommandsAreNotForwardable() {
    assertThat(ForwardableCommands.allowed(JobIntent.COMPLETE, true)).isTrue();
    assertThat(ForwardableCommands.allowed(JobIntent.COMPLETE, false)).isFalse();
    assertThat(ForwardableCommands.allowed(JobIntent.YIELD, false)).isTrue();
    assertThat(ForwardableCommands.allowed(JobIntent.TIME_OUT, true)).isFalse();
    assertThat(ForwardableCommands.allowed(TimerIntent.TRIGGER, true)).isFalse();
    assertThat(ForwardableCommands.allowed(Intents.of(-1, 0), true)).isFalse();
    assertThat(ForwardableCommands.allowed(Intents.of(ValueType.JOB.code() << 16, 0), true))
        .isFalse();
    assertThat(ForwardableCommands.allowed(null, true)).as("unknown codes").isFalse();
    assertThat(ForwardableCommands.describe(ValueType.TIMER.code(), TimerIntent.TRIGGER.code()))
        .isEqualTo("TIMER TRIGGER (17/1)");
    assertThat(ForwardableCommands.describe(999, 3)).isEqualTo("value type intent (999/3)");
    assertThat(ForwardableCommands.describe(13, 99)).isEqualTo("JOB intent (13/99)");
  }

  @Test
  void aPartitionsCopyOfASignalOrADeletionIsNoClientsCommand() {
    SignalValue signal = new SignalValue();
    signal.signalName = "go";
    assertThat(client(SignalIntent.BROADCAST, signal)).isTrue();
    signal.originPartitionId = 1;
    assertThat(client(SignalIntent.BROADCAST, signal))
        .as("a copy from partition 1 skips its checks and acknowledges its pending copy")
        .isFalse();
    ResourceDeletionValue deletion = new ResourceDeletionValue();
    deletion.resourceKey = 2251799813685249L;
    assertThat(client(ResourceDeletionIntent.DELETE, deletion)).isTrue();
    deletion.originPartitionId = 1;
    assertThat(client(ResourceDeletionIntent.DELETE, deletion))
        .as("a copy deletes on its partition alone")
        .isFalse();
    assertThat(ForwardableCommands.isClientForm(SignalIntent.BROADCAST, new byte[] {1, 2, 3}))
        .as("what does not decode")
        .isFalse();
  }

  private static boolean client(Intent intent, RecordValue value) {
    byte[] bytes = new byte[value.length()];
    value.write(new UnsafeBuffer(bytes), 0);
    return ForwardableCommands.isClientForm(intent, bytes);
  }

  private static Intent intent(Matcher command) throws ReflectiveOperationException {
    Class<?> intents = Class.forName(Intent.class.getPackageName() + "." + command.group(1));
    return (Intent) intents.getField(command.group(2)).get(null);
  }
}
