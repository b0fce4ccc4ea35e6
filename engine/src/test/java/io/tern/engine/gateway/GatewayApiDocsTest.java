package io.tern.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What docs/broker.md and the README say the gateway serves is what {@link GatewayService}
 * implements, RPC by RPC of Zeebe's gateway API (a new client version's RPC shows up here too).
 */
class GatewayApiDocsTest {
  // The build runs in engine/.
  private static final Path BROKER_MD = Path.of("..", "docs", "broker.md");
  private static final Path README = Path.of("..", "README.md");

  private static List<String> rpcs() {
    return GatewayGrpc.getServiceDescriptor().getMethods().stream()
        .map(MethodDescriptor::getBareMethodName)
        .sorted()
        .toList();
  }

  private static Set<String> implemented() {
    return Arrays.stream(GatewayService.class.getDeclaredMethods())
        .map(Method::getName)
        .collect(Collectors.toSet());
  }

  private static boolean isImplemented(String rpc) {
    return implemented().contains(Character.toLowerCase(rpc.charAt(0)) + rpc.substring(1));
  }

  @Test
  void brokerMdListsWhatIsServedAndWhatIsNot() throws IOException {
    String page = Files.readString(BROKER_MD).replaceAll("\\s+", " ");
    String served = between(page, "The gateway implements Zeebe's `Gateway` service", "Not served");
    String notServed = between(page, "Not served yet", "`GatewayApiDocsTest`");
    assertThat(rpcs()).contains("ActivateJobs", "DeployResource");
    for (String rpc : rpcs()) {
      if (isImplemented(rpc)) {
        assertThat(words(served)).as("docs/broker.md lists %s as served", rpc).contains(rpc);
      } else {
        assertThat(words(notServed)).as("docs/broker.md lists %s as not served", rpc).contains(rpc);
        assertThat(words(served)).as("%s is not served", rpc).doesNotContain(rpc);
      }
    }
  }

  @Test
  void theReadmeNamesWhatIsNotServed() throws IOException {
    String readme = Files.readString(README);
    for (String rpc : rpcs()) {
      if (!isImplemented(rpc)) {
        assertThat(words(readme)).as("README.md names %s as not served", rpc).contains(rpc);
      }
    }
  }

  private static String between(String text, String from, String to) {
    int start = text.indexOf(from);
    assertThat(start).as("'%s' in docs/broker.md", from).isNotNegative();
    int end = text.indexOf(to, start + from.length());
    assertThat(end).as("'%s' after '%s' in docs/broker.md", to, from).isPositive();
    return text.substring(start, end);
  }

  private static List<String> words(String text) {
    return Arrays.asList(text.split("[^A-Za-z]+"));
  }
}
