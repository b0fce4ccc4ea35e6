package io.tern.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The allow-list of commands a non-broker may send is exactly what a gateway sends. */
class ForwardableCommandsTest {
  /** A command in the gateway's sources: {@code ValueTypes.X,} then {@code YIntent.Z}. */
  private static final Pattern COMMAND =
      Pattern.compile("ValueTypes\\.([A-Z_]+),\\s*(?:ValueTypes\\.)?([A-Za-z]+Intent)\\.([A-Z_]+)");

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
    Set<String> sent = new TreeSet<>();
    for (Path source : sources) {
      Matcher command = COMMAND.matcher(Files.readString(source));
      while (command.find()) {
        sent.add(constant(ValueTypes.class, command.group(1)) + "/" + intent(command));
      }
    }
    assertThat(sent).hasSizeGreaterThan(15);
    assertThat(ForwardableCommands.all()).isEqualTo(sent);
  }

  @Test
  void internalCommandsAndUnansweredClientCommandsAreNotForwardable() {
    assertThat(ForwardableCommands.allowed(ValueTypes.JOB, ValueTypes.JobIntent.COMPLETE, true))
        .isTrue();
    assertThat(ForwardableCommands.allowed(ValueTypes.JOB, ValueTypes.JobIntent.COMPLETE, false))
        .isFalse();
    assertThat(ForwardableCommands.allowed(ValueTypes.JOB, ValueTypes.JobIntent.YIELD, false))
        .isTrue();
    assertThat(ForwardableCommands.allowed(ValueTypes.JOB, ValueTypes.JobIntent.TIME_OUT, true))
        .isFalse();
    assertThat(ForwardableCommands.allowed(ValueTypes.TIMER, ValueTypes.TimerIntent.TRIGGER, true))
        .isFalse();
    assertThat(ForwardableCommands.allowed(-1, 0, true)).isFalse();
    assertThat(ForwardableCommands.allowed(ValueTypes.JOB << 16, 0, true)).isFalse();
    assertThat(ForwardableCommands.describe(ValueTypes.TIMER, ValueTypes.TimerIntent.TRIGGER))
        .isEqualTo("TIMER TRIGGER (17/1)");
    assertThat(ForwardableCommands.describe(999, 3)).isEqualTo("value type intent (999/3)");
  }

  @Test
  void aPartitionsCopyOfASignalOrADeletionIsNoClientsCommand() {
    SignalValue signal = new SignalValue();
    signal.signalName = "go";
    assertThat(client(ValueTypes.SIGNAL, ValueTypes.SignalIntent.BROADCAST, signal)).isTrue();
    signal.originPartitionId = 1;
    assertThat(client(ValueTypes.SIGNAL, ValueTypes.SignalIntent.BROADCAST, signal))
        .as("a copy from partition 1 skips its checks and acknowledges its pending copy")
        .isFalse();
    ResourceDeletionValue deletion = new ResourceDeletionValue();
    deletion.resourceKey = 2251799813685249L;
    assertThat(
            client(
                ValueTypes.RESOURCE_DELETION, ValueTypes.ResourceDeletionIntent.DELETE, deletion))
        .isTrue();
    deletion.originPartitionId = 1;
    assertThat(
            client(
                ValueTypes.RESOURCE_DELETION, ValueTypes.ResourceDeletionIntent.DELETE, deletion))
        .as("a copy deletes on its partition alone")
        .isFalse();
    assertThat(
            ForwardableCommands.isClientForm(
                ValueTypes.SIGNAL, ValueTypes.SignalIntent.BROADCAST, new byte[] {1, 2, 3}))
        .as("what does not decode")
        .isFalse();
  }

  private static boolean client(int valueType, int intent, RecordValue value) {
    byte[] bytes = new byte[value.length()];
    value.write(new UnsafeBuffer(bytes), 0);
    return ForwardableCommands.isClientForm(valueType, intent, bytes);
  }

  private static int intent(Matcher command) throws ReflectiveOperationException {
    Class<?> intents = Class.forName(ValueTypes.class.getName() + "$" + command.group(2));
    return constant(intents, command.group(3));
  }

  private static int constant(Class<?> owner, String name) throws ReflectiveOperationException {
    return owner.getField(name).getInt(null);
  }
}
