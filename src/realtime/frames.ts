/**
 * Serialises each outgoing payload once, however many sockets and transports send it: the body hands
 * the same payload object to every transport, so the encoded bytes are cached per object.
 */
const encoded = new WeakMap<object, Buffer>();

export function encodeFrame(payload: object): Buffer {
  let frame = encoded.get(payload);
  if (!frame) {
    frame = Buffer.from(JSON.stringify(payload));
    encoded.set(payload, frame);
  }
  return frame;
}
