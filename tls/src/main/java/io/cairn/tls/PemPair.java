package io.cairn.tls;

import java.nio.file.Path;

/**
 * Where a certificate and its private key were written.
 *
 * @param certificate the PEM certificate file ({@code rw-r--r--})
 * @param privateKey the PEM private key file ({@code rw-------})
 */
public record PemPair(Path certificate, Path privateKey) {}
