package io.cairn.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Time and randomness come in from outside (docs/DESIGN.md §2, §5): main code reads no clock,
 * sleeps no thread and draws no unseeded random number of its own; it is given a {@code
 * io.cairn.scheduler.Clock}, a scheduler, a seed. So simulations drive time and replay runs.
 *
 * <p>Forbidden in main code: {@code System.currentTimeMillis()}, {@code System.nanoTime()}, {@code
 * Instant.now()}, {@code Thread.sleep}, {@code TimeUnit.sleep}, {@code new Random()} without a
 * seed, {@code Math.random()}, and {@code ThreadLocalRandom} — calls and method references alike —
 * except in the classes that inject them into everyone else ({@link #INJECTORS}, one reason each).
 */
final class ClockAndRandomnessTest {

  /** A forbidden target: owner, name, and number of parameters (-1: any). */
  private record Forbidden(Class<?> owner, String name, int parameters) {
    boolean matches(AccessTarget target) {
      if (!target.getOwner().getName().equals(owner.getName())) {
        return false;
      }
      if (name == null) {
        return true; // every member of the owner
      }
      if (!target.getName().equals(name)) {
        return false;
      }
      return parameters < 0
          || (target instanceof CodeUnitAccessTarget codeUnit
              && codeUnit.getRawParameterTypes().size() == parameters);
    }
  }

  private static final List<Forbidden> FORBIDDEN =
      List.of(
          new Forbidden(System.class, "currentTimeMillis", 0),
          new Forbidden(System.class, "nanoTime", 0),
          new Forbidden(java.time.Instant.class, "now", 0),
          new Forbidden(Thread.class, "sleep", -1),
          new Forbidden(java.util.concurrent.TimeUnit.class, "sleep", -1),
          new Forbidden(java.util.Random.class, "<init>", 0),
          new Forbidden(Math.class, "random", 0),
          new Forbidden(java.util.concurrent.ThreadLocalRandom.class, null, -1));

  /**
   * Classes (top level; their nested classes and lambdas count as theirs) that may read the system
   * clock, sleep or draw unseeded randomness, because time or chance enters the program there: each
   * with its reason.
   */
  static final Map<String, String> INJECTORS =
      Map.of(
          "io.cairn.scheduler.SystemClock",
          "the Clock of the running system, which everyone else is given",
          "io.cairn.pacing.RateLimiter",
          "its SLEEP is the production Pause that the stores inject; tests inject their own",
          "io.cairn.client.JitterSeeds",
          "the retry-jitter seed of a client built without one (the client has no Clock)",
          "io.cairn.cli.Pause",
          "the command line waits between polls for a person",
          "io.cairn.benchmarks.S3ProxyProcess",
          "waits in real time for an external S3Proxy process to answer; benchmarks only",
          "io.cairn.benchmarks.hotpath.EtcdCluster",
          "waits in real time for external etcd processes to answer; benchmarks only");

  /** Packages of code we do not write, each with its reason. */
  static final Map<String, String> GENERATED =
      Map.of("io.cairn.benchmarks.jmh_generated", "JMH's generated measurement loops");

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.cairn.architecture.ModuleDependencyTest#modulesWithMainCode")
  void shouldTakeTimeAndRandomnessFromOutside(String module) {
    rule().check(ModuleClasses.of(module));
  }

  @Test
  void shouldCatchEveryForbiddenCallAndReference() {
    List<String> details =
        rule()
            .evaluate(new ClassFileImporter().importClasses(Violations.class))
            .getFailureReport()
            .getDetails();

    assertThat(details)
        .hasSize(10) // Thread.sleep twice; ThreadLocalRandom's current() and nextDouble()
        .anySatisfy(d -> assertThat(d).contains("System.currentTimeMillis()"))
        .anySatisfy(d -> assertThat(d).contains("System.nanoTime()"))
        .anySatisfy(d -> assertThat(d).contains("Instant.now()"))
        .anySatisfy(d -> assertThat(d).contains("Thread.sleep(long)"))
        .anySatisfy(d -> assertThat(d).contains("references method <java.util.concurrent.TimeUnit"))
        .anySatisfy(d -> assertThat(d).contains("constructor <java.util.Random.<init>()>"))
        .anySatisfy(d -> assertThat(d).contains("Math.random()"))
        .anySatisfy(d -> assertThat(d).contains("ThreadLocalRandom.current()"))
        .noneSatisfy(d -> assertThat(d).contains("Random.<init>(long)"))
        .noneSatisfy(d -> assertThat(d).contains("now(java.time.Clock)"));
  }

  private static ArchRule rule() {
    return noClasses()
        .that(notExcepted())
        .should()
        .accessTargetWhere(forbiddenTarget())
        .because(
            "time and randomness are injected (a Clock, the scheduler, a seed), so that"
                + " simulations drive time and runs replay")
        .allowEmptyShould(true);
  }

  /** Each forbidden call or reference, and the allowed seeded and injected forms. */
  @SuppressWarnings("unused")
  private static final class Violations {
    long clocks() {
      return System.currentTimeMillis() + System.nanoTime() + java.time.Instant.now().getNano();
    }

    void sleeps() throws InterruptedException {
      Thread.sleep(1);
      Thread.sleep(1, 0);
      PauseLike pause = java.util.concurrent.TimeUnit.NANOSECONDS::sleep;
    }

    double chance() {
      return new java.util.Random().nextDouble()
          + Math.random()
          + java.util.concurrent.ThreadLocalRandom.current().nextDouble();
    }

    double allowed(java.time.Clock clock) {
      return new java.util.Random(42).nextDouble() + java.time.Instant.now(clock).getNano();
    }

    @FunctionalInterface
    interface PauseLike {
      void pause(long nanos) throws InterruptedException;
    }
  }

  private static DescribedPredicate<JavaAccess<?>> forbiddenTarget() {
    return DescribedPredicate.describe(
        "is one of "
            + FORBIDDEN.stream()
                .map(f -> f.owner().getSimpleName() + (f.name() == null ? ".*" : "." + f.name()))
                .collect(Collectors.joining(", ")),
        access -> FORBIDDEN.stream().anyMatch(f -> f.matches(access.getTarget())));
  }

  private static DescribedPredicate<JavaClass> notExcepted() {
    return DescribedPredicate.describe(
        "are not injectors " + INJECTORS.keySet(),
        javaClass -> {
          String topLevel = topLevel(javaClass).getName();
          return !INJECTORS.containsKey(topLevel)
              && GENERATED.keySet().stream()
                  .noneMatch(
                      p ->
                          javaClass.getPackageName().equals(p)
                              || javaClass.getPackageName().startsWith(p + "."));
        });
  }

  private static JavaClass topLevel(JavaClass javaClass) {
    JavaClass current = javaClass;
    while (current.getEnclosingClass().isPresent()) {
      current = current.getEnclosingClass().get();
    }
    return current;
  }
}
