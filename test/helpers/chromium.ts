/** Debian's Chromium for browser tests (`apt-get install chromium`; .ci/run installs it). */
import { existsSync } from 'node:fs';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));

/** Without a browser the tests are skipped here, but never under CI, where a missing browser must fail. */
export const hasBrowser = !!CHROMIUM || !!process.env.CI;

/** Flags for a headless run on a machine without a network to the browser vendor's services. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
