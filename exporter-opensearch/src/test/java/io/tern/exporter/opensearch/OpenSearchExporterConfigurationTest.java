package io.tern.exporter.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenSearchExporterConfigurationTest {
  @TempDir Path dir;

  private static OpenSearchExporterConfiguration configure(Map<String, Object> args) {
    TestContext context = new TestContext(args);
    OpenSearchExporter exporter = new OpenSearchExporter();
    exporter.configure(context);
    return context.getConfiguration().instantiate(OpenSearchExporterConfiguration.class);
  }

  @Test
  void theDefaultsAreZeebe86s() {
    OpenSearchExporterConfiguration config = configure(Map.of());

    assertThat(config.urls()).containsExactly(URI.create("http://localhost:9200/"));
    assertThat(config.index.prefix).isEqualTo("zeebe-record");
    assertThat(config.index.createTemplate).isTrue();
    assertThat(config.bulk.size).isEqualTo(1000);
    assertThat(config.bulk.delay).isEqualTo(5);
    assertThat(config.bulk.memoryLimit).isEqualTo(10 * 1024 * 1024);
    assertThat(config.requestTimeoutMs).isEqualTo(30_000);
    assertThat(config.index.shards()).isEqualTo(3);
    assertThat(config.index.replicas()).isZero();
    assertThat(config.accepts(RecordType.EVENT)).isTrue();
    assertThat(config.accepts(RecordType.COMMAND)).isFalse();
    assertThat(config.accepts(RecordType.COMMAND_REJECTION)).isFalse();
  }

  @Test
  void theFilterLetsThroughWhatZeebe86IndexesByDefault() {
    TestContext context = new TestContext(Map.of());
    new OpenSearchExporter().configure(context);

    assertThat(context.filter.acceptType(RecordType.EVENT)).isTrue();
    assertThat(context.filter.acceptType(RecordType.COMMAND)).isFalse();
    assertThat(context.filter.acceptType(RecordType.COMMAND_REJECTION)).isFalse();
    for (ValueType on :
        new ValueType[] {
          ValueType.JOB, ValueType.PROCESS_INSTANCE, ValueType.DEPLOYMENT, ValueType.INCIDENT,
          ValueType.TIMER, ValueType.MESSAGE, ValueType.VARIABLE, ValueType.VARIABLE_DOCUMENT,
          ValueType.PROCESS, ValueType.DECISION, ValueType.USER_TASK, ValueType.FORM,
          ValueType.MESSAGE_CORRELATION, ValueType.COMPENSATION_SUBSCRIPTION
        }) {
      assertThat(context.filter.acceptValue(on)).as("%s", on).isTrue();
    }
    for (ValueType off :
        new ValueType[] {
          ValueType.JOB_BATCH,
          ValueType.MESSAGE_BATCH,
          ValueType.PROCESS_INSTANCE_BATCH,
          ValueType.PROCESS_EVENT,
          ValueType.CHECKPOINT,
          ValueType.USER,
          ValueType.AUTHORIZATION,
          ValueType.CLOCK,
          ValueType.PROCESS_INSTANCE_RESULT,
          ValueType.SBE_UNKNOWN
        }) {
      assertThat(context.filter.acceptValue(off)).as("%s", off).isFalse();
    }
  }

  @Test
  void argsAreReadUnderZeebesNamesInAnyCaseAndFromText() {
    // As the environment gives them: text, lower case, nested.
    OpenSearchExporterConfiguration config =
        configure(
            Map.of(
                "url",
                "http://a:9200, https://b:9201",
                "index",
                Map.of(
                    "prefix", "tern",
                    "command", "true",
                    "jobbatch", "true",
                    "job", "false",
                    "numberOfShards", "1",
                    "numberofreplicas", "2"),
                "bulk",
                Map.of("size", "10", "delay", "2", "memoryLimit", "1024"),
                "requestTimeoutMs",
                "500"));

    assertThat(config.urls())
        .containsExactly(URI.create("http://a:9200/"), URI.create("https://b:9201/"));
    assertThat(config.index.prefix).isEqualTo("tern");
    assertThat(config.accepts(RecordType.COMMAND)).isTrue();
    assertThat(config.accepts(ValueType.JOB_BATCH)).isTrue();
    assertThat(config.accepts(ValueType.JOB)).isFalse();
    assertThat(config.index.shards()).isEqualTo(1);
    assertThat(config.index.replicas()).isEqualTo(2);
    assertThat(config.bulk.size).isEqualTo(10);
    assertThat(config.bulk.delay).isEqualTo(2);
    assertThat(config.bulk.memoryLimit).isEqualTo(1024);
    assertThat(config.requestTimeoutMs).isEqualTo(500);
  }

  @Test
  void aBadValueIsRefusedNamingItsArg() {
    assertRefused(Map.of("url", "localhost:9200"), "url");
    assertRefused(Map.of("url", " , "), "url");
    assertRefused(Map.of("index", Map.of("prefix", "zeebe_record")), "index.prefix");
    assertRefused(Map.of("index", Map.of("prefix", "Zeebe")), "index.prefix");
    assertRefused(Map.of("index", Map.of("numberOfShards", 0)), "index.numberOfShards");
    assertRefused(Map.of("index", Map.of("numberOfReplicas", -1)), "index.numberOfReplicas");
    assertRefused(
        Map.of("index", Map.of("indexSuffixDatePattern", "yyyy-MM-dd'")),
        "index.indexSuffixDatePattern");
    assertRefused(Map.of("bulk", Map.of("size", 0)), "bulk.size");
    assertRefused(Map.of("bulk", Map.of("delay", 0)), "bulk.delay");
    assertRefused(Map.of("bulk", Map.of("memoryLimit", 0)), "bulk.memoryLimit");
    assertRefused(Map.of("requestTimeoutMs", 0), "requestTimeoutMs");
    assertRefused(Map.of("authentication", Map.of("username", "u")), "authentication.password");
    assertRefused(Map.of("authentication", Map.of("password", "p")), "authentication.username");
    assertRefused(
        Map.of("authentication", Map.of("username", "u", "passwordFile", "/nonexistent/pw")),
        "authentication.passwordFile");
    // A value Jackson cannot convert: the exception names the property.
    assertRefused(Map.of("bulk", Map.of("size", "many")), "size");
  }

  @Test
  void thePasswordMayComeFromAFileAndIsNeverShown() throws Exception {
    Path secret = dir.resolve("password");
    Files.writeString(secret, "s3cret-from-file\n");
    OpenSearchExporterConfiguration config =
        configure(
            Map.of(
                "authentication",
                Map.of("username", "elastic", "passwordFile", secret.toString())));

    assertThat(config.password()).contains("s3cret-from-file");
    OpenSearchExporterConfiguration inline =
        configure(Map.of("authentication", Map.of("username", "elastic", "password", "inline")));
    assertThat(inline.toString()).doesNotContain("inline").contains("***");
    assertThat(config.toString()).doesNotContain("s3cret");
  }

  private static void assertRefused(Map<String, Object> args, String arg) {
    assertThatThrownBy(() -> configure(args)).as("%s", args).hasMessageContaining(arg);
  }
}
