package io.cairn.benchmarks.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.benchmarks.hotpath.HotPathGoals.Goal;
import io.cairn.benchmarks.hotpath.HotPathGoals.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HotPathGoalsTest {

  @Test
  void shouldPassThroughputRatiosAtOrAboveTheGoalWithoutErrors() {
    List<Measurement> closed = new ArrayList<>();
    closed.add(closed("cairn", "deposit", 16, 1000, 2.0, Map.of()));
    closed.add(closed("etcd", "put", 16, 1000, 2.0, Map.of()));
    closed.add(closed("cairn", "deposit", 64, 1500, 2.0, Map.of()));
    closed.add(closed("etcd", "put", 64, 2000, 2.0, Map.of()));

    List<Goal> goals = HotPathGoals.evaluate(inputs(closed, Map.of()));

    assertThat(goal(goals, "deposits/s ÷ etcd puts/s, c16"))
        .returns(1.0, Goal::value)
        .returns(Verdict.PASS, Goal::verdict)
        .returns("1.00", Goal::shown);
    assertThat(goal(goals, "deposits/s ÷ etcd puts/s, c64"))
        .returns(0.75, Goal::value)
        .returns(Verdict.MISS, Goal::verdict);
    assertThat(goal(goals, "deposits/s ÷ etcd puts/s, c256"))
        .returns(Verdict.NOT_MEASURED, Goal::verdict)
        .returns("-", Goal::shown);
  }

  @Test
  void shouldMissARatioAboveTheGoalWhenEitherSideHadErrors() {
    List<Measurement> closed =
        List.of(
            closed("cairn", "deposit", 16, 3000, 2.0, Map.of("RESOURCE_EXHAUSTED", 1L)),
            closed("etcd", "put", 16, 1000, 2.0, Map.of()),
            closed("cairn", "transfer", 64, 600, 2.0, Map.of()),
            closed("etcd", "put", 64, 1000, 2.0, Map.of("HTTP 503", 2L)));

    List<Goal> goals = HotPathGoals.evaluate(inputs(closed, Map.of()));

    assertThat(goal(goals, "deposits/s ÷ etcd puts/s, c16"))
        .returns(3.0, Goal::value)
        .returns(Verdict.MISS, Goal::verdict);
    assertThat(goal(goals, "transfers/s ÷ etcd puts/s, c64"))
        .returns(0.6, Goal::value)
        .returns(Verdict.MISS, Goal::verdict);
  }

  @Test
  void shouldCompareP50AtC1AndServerCpuPerCall() {
    List<Measurement> closed =
        List.of(
            // 2.5 ms p50; brokers 0.6 s + gateway 0.2 s over 1000 calls = 0.8 ms per call
            closed(
                "cairn",
                "deposit",
                1,
                1000,
                2.5,
                Map.of(),
                Map.of("brokers", 0.6, "gateway", 0.2, "client", 5.0)),
            // 2.0 ms p50; etcd 1.0 s over 1000 calls = 1.0 ms per call
            closed("etcd", "put", 1, 1000, 2.0, Map.of(), Map.of("etcd", 1.0, "client", 0.1)));

    List<Goal> goals = HotPathGoals.evaluate(inputs(closed, Map.of()));

    assertThat(goal(goals, "deposit p50 ÷ etcd put p50, c1"))
        .returns(1.25, Goal::value)
        .returns(Verdict.PASS, Goal::verdict);
    // no c64 in the run: the highest level both sides ran, the client's CPU left out
    Goal cpu = goal(goals, "CPU per deposit ÷ etcd CPU per put (servers), c1");
    assertThat(cpu.value()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(cpu.verdict()).isEqualTo(Verdict.PASS);
  }

  @Test
  void shouldCountRejectionsAndBoundOverload() {
    Map<Integer, Measurement> open =
        Map.of(
            50, open(500, 500, 5.0, Map.of()),
            80, open(800, 790, 8.0, Map.of("RESOURCE_EXHAUSTED", 3L)),
            150, open(1500, 950, 1200.0, Map.of()));

    List<Goal> goals = HotPathGoals.evaluate(inputs(List.of(), open));

    assertThat(goal(goals, "rejections at 50% of max offered"))
        .returns(Verdict.PASS, Goal::verdict)
        .returns("0", Goal::shown);
    assertThat(goal(goals, "rejections at 80% of max offered"))
        .returns(3.0, Goal::value)
        .returns(Verdict.MISS, Goal::verdict);
    // 950 / 1000 meets 0.9, but p99 1200 ms is over the bound
    assertThat(goal(goals, "acknowledged at 150% offered ÷ max"))
        .returns(0.95, Goal::value)
        .returns(Verdict.MISS, Goal::verdict);
  }

  @Test
  void shouldJudgeBackupGoalsAndCallNotMeasuredNeitherPassNorMiss() {
    List<Goal> measured =
        HotPathGoals.evaluate(
            new HotPathGoals.Inputs(
                List.of(),
                Map.of(),
                1000,
                Optional.of(0.96),
                Optional.of(50.0),
                Map.of("status", 12.0, "list", 101.0)));
    List<Goal> skipped = HotPathGoals.evaluate(inputs(List.of(), Map.of()));

    assertThat(goal(measured, "throughput during a backup ÷ without, 80% of max").verdict())
        .isEqualTo(Verdict.PASS);
    assertThat(goal(measured, "checkpoint latency p99 under load (ms)").verdict())
        .isEqualTo(Verdict.PASS);
    assertThat(goal(measured, "backup status p99 during a backup (ms)").verdict())
        .isEqualTo(Verdict.PASS);
    assertThat(goal(measured, "backup list p99 during a backup (ms)").verdict())
        .isEqualTo(Verdict.MISS);
    assertThat(goal(measured, "backup topology p99 during a backup (ms)").verdict())
        .isEqualTo(Verdict.NOT_MEASURED);
    assertThat(HotPathGoals.allMeasuredPass(measured)).isFalse();
    assertThat(skipped).extracting(Goal::verdict).containsOnly(Verdict.NOT_MEASURED);
    assertThat(HotPathGoals.allMeasuredPass(skipped)).isTrue();
  }

  private static HotPathGoals.Inputs inputs(
      List<Measurement> closed, Map<Integer, Measurement> open) {
    return new HotPathGoals.Inputs(
        closed, open, 1000, Optional.empty(), Optional.empty(), Map.of());
  }

  private static Goal goal(List<Goal> goals, String name) {
    return goals.stream()
        .filter(g -> g.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no goal '" + name + "' in " + goals));
  }

  private static Measurement closed(
      String side,
      String workload,
      int concurrency,
      double opsPerSecond,
      double p50Ms,
      Map<String, Long> errors) {
    return closed(side, workload, concurrency, opsPerSecond, p50Ms, errors, Map.of());
  }

  private static Measurement closed(
      String side,
      String workload,
      int concurrency,
      double opsPerSecond,
      double p50Ms,
      Map<String, Long> errors,
      Map<String, Double> cpuSeconds) {
    return new Measurement(
        "c" + concurrency,
        side,
        workload,
        "closed",
        concurrency,
        0,
        1.0,
        (long) opsPerSecond,
        opsPerSecond,
        new LatencyRecorder.Latency(p50Ms, p50Ms * 2, p50Ms * 3),
        errors,
        cpuSeconds);
  }

  private static Measurement open(
      double offered, double opsPerSecond, double p99Ms, Map<String, Long> errors) {
    return new Measurement(
        "open",
        "cairn",
        "deposit",
        "open",
        0,
        offered,
        1.0,
        (long) opsPerSecond,
        opsPerSecond,
        new LatencyRecorder.Latency(1, p99Ms, p99Ms),
        errors,
        Map.of());
  }
}
