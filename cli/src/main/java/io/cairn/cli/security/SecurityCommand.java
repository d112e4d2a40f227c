package io.cairn.cli.security;

import io.cairn.auth.ApiKeys;
import io.cairn.auth.ApiKeys.GeneratedApiKey;
import io.cairn.auth.Role;
import io.cairn.cli.ClientCommand;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cairn security create-api-key}: credentials for a gateway, made here, no gateway asked.
 */
@Command(
    name = "security",
    description = "Makes credentials for a gateway with gateway.security.auth.enabled.",
    subcommands = {SecurityCommand.CreateApiKey.class})
public final class SecurityCommand implements Runnable {

  @Spec private CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Expected create-api-key, but got nothing");
  }

  /**
   * {@code cairn security create-api-key --id billing-service --role client}: a new key with a
   * random secret; prints the key (once: nothing keeps it) and the line for the gateway's
   * credentials file, which holds only the secret's SHA-256.
   */
  @Command(
      name = "create-api-key",
      description = {
        "Makes a new API key: prints the key to give to its caller (shown once: Cairn keeps no"
            + " copy) and the line to append to the gateway's credentials file"
            + " (gateway.security.auth.apiKeysFile), which holds only the SHA-256 of the secret.",
        "The caller presents it with --api-key, $CAIRN_API_KEY, --credentials-file or"
            + " 'Authorization: ApiKey <key>'."
      })
  static final class CreateApiKey implements Callable<Integer> {

    @Spec private CommandSpec spec;

    @Option(
        names = "--id",
        required = true,
        paramLabel = "keyId",
        description =
            "The key's name in the file, the logs and the audit trail: 1 to 64 of A-Z a-z 0-9 . _"
                + " -, e.g. billing-service or ops.alice.")
    private String keyId;

    @Option(
        names = "--role",
        required = true,
        paramLabel = "client|admin",
        description = "client: the ledger API; admin: everything (admin includes client).")
    private String role;

    @Override
    public Integer call() {
      Role granted =
          Role.fromId(role)
              .orElseThrow(
                  () ->
                      new ParameterException(
                          spec.commandLine(),
                          "Expected --role to be one of "
                              + Role.ids()
                              + ", but was '"
                              + role
                              + "'"));
      GeneratedApiKey key;
      try {
        key = ApiKeys.generate(keyId, Set.of(granted));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage() + " (--id)");
      }
      Printer printer = ClientCommand.root(spec).printer();
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("keyId", key.keyId());
      result.put("roles", List.of(granted.id()));
      result.put("key", key.presentedKey());
      result.put("credentialsFileLine", key.fileLine());
      printer.result(
          result,
          out -> {
            out.println(
                "API key "
                    + key.keyId()
                    + " (role "
                    + granted.id()
                    + "). Give the key to its caller once, over a safe channel; Cairn keeps no"
                    + " copy, a lost key is replaced, not recovered:");
            out.println("  " + key.presentedKey());
            out.println(
                "Append this line to the gateway's credentials file"
                    + " (gateway.security.auth.apiKeysFile, mode 600); it holds only the SHA-256 of"
                    + " the secret, and the gateway reads it again within apiKeysReloadInterval:");
            out.println("  " + key.fileLine());
          });
      return ExitCode.OK;
    }
  }
}
