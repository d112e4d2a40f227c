package io.cairn.cli.cluster;

/**
 * One process of a local cluster as {@code cluster status} (and {@code up}, {@code down}) report
 * it.
 *
 * @param name broker-&lt;i&gt; or gateway
 * @param pid its pid; -1 when none is recorded
 * @param state running, stopped, started, already running, killed, ...
 * @param log its log file
 */
public record ProcessStatus(String name, long pid, String state, String log) {}
