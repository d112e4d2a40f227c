package io.cairn.qa.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The embedded cluster's network: one {@link LinkProxy} per directed link between nodes, and the
 * faults applied to them. A link {@code from -> to} is blocked iff the pair is {@linkplain
 * #partition partitioned} or either end is {@linkplain #isolate isolated}; every change is applied
 * to the proxies at once.
 *
 * <p>Partitions (what a test asks for) and isolations (what a kill does until the node restarts)
 * are kept apart so that {@link #heal()} never reconnects a killed node, and a restart never undoes
 * a partition.
 *
 * <p>Thread-safe: every method is synchronized; the proxies run on one daemon event loop thread
 * ({@code cairn-qa-network}).
 */
public final class ProxyNetwork implements AutoCloseable {

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(
          1, new DefaultThreadFactory("cairn-qa-network", true), NioIoHandler.newFactory());
  private final Map<Link, LinkProxy> links = new TreeMap<>();
  private final Set<Link> partitions = new HashSet<>();
  private final Set<Integer> isolated = new HashSet<>();
  private boolean closed;

  /** A directed link between two nodes. */
  public record Link(int from, int to) implements Comparable<Link> {
    @Override
    public int compareTo(Link other) {
      return from != other.from ? Integer.compare(from, other.from) : Integer.compare(to, other.to);
    }
  }

  /**
   * Starts the proxy of {@code from -> to} forwarding to {@code target}, if there is none yet.
   *
   * @return the address {@code from} must use for {@code to}
   */
  public synchronized InetSocketAddress link(int from, int to, InetSocketAddress target) {
    if (closed) {
      throw new IllegalStateException("Expected an open network, but it is closed");
    }
    if (from == to) {
      throw new IllegalArgumentException("Expected a link between two nodes, but both are " + from);
    }
    Link link = new Link(from, to);
    LinkProxy proxy = links.get(link);
    if (proxy == null) {
      proxy = new LinkProxy(from, to, target, group);
      proxy.start();
      links.put(link, proxy);
      apply(link, proxy);
    }
    return proxy.address();
  }

  /** The address {@code from} uses for {@code to}. */
  public synchronized InetSocketAddress addressOf(int from, int to) {
    LinkProxy proxy = links.get(new Link(from, to));
    if (proxy == null) {
      throw new IllegalArgumentException(
          "Expected a link " + from + " -> " + to + ", but none exists");
    }
    return proxy.address();
  }

  /**
   * Points every link to {@code node} at {@code target}, for a node that had to listen on another
   * port; the senders keep their addresses.
   */
  public synchronized void retarget(int node, InetSocketAddress target) {
    links.forEach(
        (link, proxy) -> {
          if (link.to() == node) {
            proxy.retarget(target);
          }
        });
  }

  /** Cuts both directions between {@code a} and {@code b}; open connections are reset. */
  public synchronized void partition(int a, int b) {
    if (a == b) {
      throw new IllegalArgumentException("Expected two different nodes, but both are " + a);
    }
    partitions.add(new Link(a, b));
    partitions.add(new Link(b, a));
    applyAll();
  }

  /** Removes every partition (isolated nodes stay isolated). */
  public synchronized void heal() {
    partitions.clear();
    applyAll();
  }

  /** Cuts every link from and to {@code node} until {@link #rejoin}. */
  public synchronized void isolate(int node) {
    isolated.add(node);
    applyAll();
  }

  /** Undoes {@link #isolate}; partitions involving {@code node} stay. */
  public synchronized void rejoin(int node) {
    isolated.remove(node);
    applyAll();
  }

  /** The partitioned pairs, each once as {@code [smaller, larger]}. */
  public synchronized List<List<Integer>> partitions() {
    List<List<Integer>> pairs = new ArrayList<>();
    for (Link link : new TreeSet<>(partitions)) {
      if (link.from() < link.to()) {
        pairs.add(List.of(link.from(), link.to()));
      }
    }
    return pairs;
  }

  /**
   * Holds the link {@code from -> to} until {@link #release}: what {@code from} sends is kept in
   * order and delivered at once on release (see {@link LinkProxy#hold()}).
   */
  public synchronized void hold(int from, int to) {
    proxy(from, to).hold();
  }

  /** Delivers what {@code from -> to} kept and relays as before. */
  public synchronized void release(int from, int to) {
    proxy(from, to).release();
  }

  /** Whether {@code from -> to} is cut now. */
  public synchronized boolean isBlocked(int from, int to) {
    return blocked(new Link(from, to));
  }

  /** Closes every proxy and stops the event loop. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    links.values().forEach(LinkProxy::close);
    links.clear();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  private LinkProxy proxy(int from, int to) {
    LinkProxy proxy = links.get(new Link(from, to));
    if (proxy == null) {
      throw new IllegalArgumentException(
          "Expected a link " + from + " -> " + to + ", but none exists");
    }
    return proxy;
  }

  private boolean blocked(Link link) {
    return partitions.contains(link)
        || isolated.contains(link.from())
        || isolated.contains(link.to());
  }

  private void applyAll() {
    links.forEach(this::apply);
  }

  private void apply(Link link, LinkProxy proxy) {
    if (blocked(link)) {
      proxy.block();
    } else {
      proxy.unblock();
    }
  }
}
