/**
 * The cross-partition half of a transfer on the source's leader: sending {@code CREDIT APPLY} and
 * {@code CREDIT ACK} or {@code CREDIT REFUND}, and re-sending credits not settled yet. {@link
 * io.cairn.engine.credit.CreditRetryPlanner} decides (pure: state, tracking and {@code now} in,
 * sends and the next scan time out); {@link io.cairn.engine.credit.CreditRetryLoop} is the shell
 * that reads the clock and the state on the stream processor's thread and sends.
 */
package io.cairn.engine.credit;
