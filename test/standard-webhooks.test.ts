/**
 * The signer (src/lib/webhooks/standard-webhooks.ts) against the reference implementation of the
 * Standard Webhooks specification (the `standardwebhooks` package), and the specification's own
 * example.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, secretKey, sign, signedHeaders } from '../src/lib/webhooks/standard-webhooks.js';

describe('Standard Webhooks signing', () => {
  it('makes secrets of 32 random bytes behind whsec_', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('signs what the reference implementation verifies, and nothing altered', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'spaceCreated', timestamp: '2026-01-01T00:00:00.000Z', data: { id: 'evt_1', note: 'ünïcödé ✓' } });
    const headers = signedHeaders([secret], 'evt_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('evt_1', 'evt_2'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('agrees with the reference sign() byte for byte', () => {
    const secret = newWebhookSecret();
    const at = new Date('2026-03-04T05:06:07.890Z');
    const body = '{"a":1}';
    expect(sign(secret, 'msg_x', Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign('msg_x', at, body));
  });

  it('matches the example of the specification', () => {
    // From the Standard Webhooks specification (spec/standard-webhooks.md, "Signature scheme").
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs with every secret during a rotation: either one verifies', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const body = '{"type":"spaceUpdated"}';
    const headers = signedHeaders([current, previous], 'evt_9', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
  });
});
