package io.cairn.backups3.testserver;

import java.lang.reflect.Method;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Loaded into the S3Mock process (through {@code -Dloader.path} and {@code spring.main.sources}),
 * never into the tests' JVM: S3Mock's extra plain-HTTP Tomcat connector ignores {@code
 * server.address} and would listen on every interface; this gives each Tomcat connector bean, and
 * every additional connector of a Tomcat web server factory, the address 127.0.0.1 before it binds.
 * Tomcat classes are reached by reflection, so only spring-beans is needed to compile it.
 */
public final class LoopbackHttpConnector implements BeanPostProcessor {

  static final String LOOPBACK = "127.0.0.1";
  private static final String CONNECTOR = "org.apache.catalina.connector.Connector";

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (isConnector(bean.getClass())) {
      bindToLoopback(bean, beanName);
    } else {
      for (String getter :
          new String[] {"getAdditionalConnectors", "getAdditionalTomcatConnectors"}) {
        try {
          Method method = bean.getClass().getMethod(getter);
          if (method.invoke(bean) instanceof Iterable<?> connectors) {
            for (Object connector : connectors) {
              bindToLoopback(connector, beanName + "." + getter);
            }
          }
        } catch (NoSuchMethodException e) {
          // not a Tomcat web server factory
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("Expected to read the connectors of " + beanName, e);
        }
      }
    }
    return bean;
  }

  private static boolean isConnector(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getName().equals(CONNECTOR)) {
        return true;
      }
    }
    return false;
  }

  private static void bindToLoopback(Object connector, String where) {
    try {
      Method setProperty =
          connector.getClass().getMethod("setProperty", String.class, String.class);
      Object accepted = setProperty.invoke(connector, "address", LOOPBACK);
      if (!Boolean.TRUE.equals(accepted)) {
        throw new IllegalStateException(
            "Expected the Tomcat connector "
                + where
                + " to take the property address="
                + LOOPBACK
                + ", but it refused it");
      }
      System.out.println("cairn-test: bound Tomcat connector " + where + " to " + LOOPBACK);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Expected to set the address of connector " + where, e);
    }
  }
}
