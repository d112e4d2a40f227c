package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code docs/gateway-api.md} is the API's reference: its tables name exactly the gRPC methods the
 * services declare, and its management HTTP table names exactly the routes a running gateway
 * answers (read from the gateway itself: the paths its 404 lists, the methods each path's 405
 * allows). A method or route added, renamed or removed without the page fails here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class GatewayApiDocsTest {
  private static final Path PAGE = Path.of("..", "docs", "gateway-api.md");
  private static final Pattern LISTED_PATHS = Pattern.compile("Expected one of (.*), but was ");
  private static final Pattern METHOD_NAME = Pattern.compile("`([A-Z][A-Za-z]+)[`(]");
  private static final Pattern ROUTE = Pattern.compile("`(GET|POST|PUT|DELETE|PATCH) (/[^`\\s]*)`");

  private GatewayHarness harness;

  @BeforeAll
  void start() {
    harness = new GatewayHarness(3, 2, config -> config).awaitReady();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @Test
  void shouldDocumentEveryGrpcMethodOfEachService() throws Exception {
    assertThat(methodsIn(section("## Ledger API", "## Admin API")))
        .as("the Ledger API's table in %s", PAGE)
        .isEqualTo(methods(LedgerServiceGrpc.getServiceDescriptor()));
    assertThat(methodsIn(section("## Admin API", "## Management HTTP")))
        .as("the Admin API's table in %s", PAGE)
        .isEqualTo(methods(AdminServiceGrpc.getServiceDescriptor()));
  }

  @Test
  void shouldDocumentEveryRouteTheGatewayAnswers() throws Exception {
    Set<String> answered = new TreeSet<>();
    for (String path : listedPaths()) {
      // no route answers OPTIONS: the 405 names the methods the path has
      HttpResponse<String> refused =
          harness.send(
              HttpRequest.newBuilder(harness.uri(example(path)))
                  .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
      assertThat(refused.statusCode()).as("OPTIONS %s", path).isEqualTo(405);
      for (String method : refused.headers().firstValue("Allow").orElseThrow().split(", ")) {
        answered.add(method + " " + path);
      }
    }
    // an exact path a pattern also takes (DELETE /actuator/backups/schedule is the {id} route's)
    answered.removeIf(
        exact ->
            !exact.contains("{")
                && answered.stream().anyMatch(p -> p.contains("{") && matches(p, exact)));
    Set<String> documented = new TreeSet<>();
    Matcher route = ROUTE.matcher(section("## Management HTTP", "\n## "));
    while (route.find()) {
      documented.add(route.group(1) + " " + route.group(2));
    }
    // the page writes a path as an example (/actuator/backups/7) or as the route shows it
    List<String> undocumented =
        answered.stream().filter(r -> documented.stream().noneMatch(d -> matches(r, d))).toList();
    List<String> unknown =
        documented.stream().filter(d -> answered.stream().noneMatch(r -> matches(r, d))).toList();
    assertThat(undocumented)
        .as("routes the gateway answers that %s does not name as `METHOD /path`", PAGE)
        .isEmpty();
    assertThat(unknown).as("routes %s names that the gateway does not answer", PAGE).isEmpty();
  }

  /** Whether the documented {@code METHOD /path} is an instance of the route. */
  private static boolean matches(String route, String documented) {
    String regex = Pattern.quote(route).replaceAll("\\{[a-z]+\\}", "\\\\E[^/`\\\\s]*\\\\Q");
    return documented.matches(regex);
  }

  /** The paths the gateway's 404 answer lists ({@code /actuator/backups/{id}} as it is). */
  private List<String> listedPaths() throws Exception {
    HttpResponse<String> missing = harness.httpGet("/no/such/path");
    assertThat(missing.statusCode()).isEqualTo(404);
    Matcher listed = LISTED_PATHS.matcher(missing.body());
    assertThat(listed.find()).as(missing.body()).isTrue();
    return List.of(listed.group(1).split(", "));
  }

  /** A path a pattern answers: each {@code {parameter}} replaced by a value. */
  private static String example(String path) {
    return path.replace("{id}", "1").replace("{file}", "index.html");
  }

  private static Set<String> methods(ServiceDescriptor service) {
    Set<String> names = new TreeSet<>();
    for (MethodDescriptor<?, ?> method : service.getMethods()) {
      names.add(method.getBareMethodName());
    }
    return names;
  }

  /** The method names in the first cell of each row of the {@code | method |} table. */
  private static Set<String> methodsIn(String section) {
    Set<String> names = new TreeSet<>();
    boolean inTable = false;
    for (String line : section.split("\n")) {
      if (line.startsWith("| method |")) {
        inTable = true;
      } else if (!line.startsWith("|")) {
        inTable = false;
      } else if (inTable && line.startsWith("| `")) {
        Matcher name = METHOD_NAME.matcher(line.substring(1, line.indexOf('|', 1)));
        while (name.find()) {
          names.add(name.group(1));
        }
      }
    }
    return names;
  }

  private static String section(String from, String to) throws Exception {
    String page = Files.readString(PAGE);
    int start = page.indexOf(from);
    assertThat(start).as("%s in %s", from, PAGE).isNotNegative();
    int end = page.indexOf(to, start + from.length());
    return page.substring(start, end < 0 ? page.length() : end);
  }
}
