// node_modules/@bufbuild/protobuf/dist/esm/is-message.js
function isMessage(arg, schema) {
  const isMessage2 = arg !== null && typeof arg == "object" && "$typeName" in arg && typeof arg.$typeName == "string";
  if (!isMessage2) {
    return false;
  }
  if (schema === void 0) {
    return true;
  }
  return schema.typeName === arg.$typeName;
}

// node_modules/@bufbuild/protobuf/dist/esm/descriptors.js
var ScalarType;
(function(ScalarType2) {
  ScalarType2[ScalarType2["DOUBLE"] = 1] = "DOUBLE";
  ScalarType2[ScalarType2["FLOAT"] = 2] = "FLOAT";
  ScalarType2[ScalarType2["INT64"] = 3] = "INT64";
  ScalarType2[ScalarType2["UINT64"] = 4] = "UINT64";
  ScalarType2[ScalarType2["INT32"] = 5] = "INT32";
  ScalarType2[ScalarType2["FIXED64"] = 6] = "FIXED64";
  ScalarType2[ScalarType2["FIXED32"] = 7] = "FIXED32";
  ScalarType2[ScalarType2["BOOL"] = 8] = "BOOL";
  ScalarType2[ScalarType2["STRING"] = 9] = "STRING";
  ScalarType2[ScalarType2["BYTES"] = 12] = "BYTES";
  ScalarType2[ScalarType2["UINT32"] = 13] = "UINT32";
  ScalarType2[ScalarType2["SFIXED32"] = 15] = "SFIXED32";
  ScalarType2[ScalarType2["SFIXED64"] = 16] = "SFIXED64";
  ScalarType2[ScalarType2["SINT32"] = 17] = "SINT32";
  ScalarType2[ScalarType2["SINT64"] = 18] = "SINT64";
})(ScalarType || (ScalarType = {}));

// node_modules/@bufbuild/protobuf/dist/esm/wire/varint.js
function varint64read() {
  let lowBits = 0;
  let highBits = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    let b = this.buf[this.pos++];
    lowBits |= (b & 127) << shift;
    if ((b & 128) == 0) {
      this.assertBounds();
      return [lowBits, highBits];
    }
  }
  let middleByte = this.buf[this.pos++];
  lowBits |= (middleByte & 15) << 28;
  highBits = (middleByte & 112) >> 4;
  if ((middleByte & 128) == 0) {
    this.assertBounds();
    return [lowBits, highBits];
  }
  for (let shift = 3; shift <= 31; shift += 7) {
    let b = this.buf[this.pos++];
    highBits |= (b & 127) << shift;
    if ((b & 128) == 0) {
      this.assertBounds();
      return [lowBits, highBits];
    }
  }
  throw new Error("invalid varint");
}
function varint64write(lo, hi, bytes) {
  for (let i = 0; i < 28; i = i + 7) {
    const shift = lo >>> i;
    const hasNext = !(shift >>> 7 == 0 && hi == 0);
    const byte = (hasNext ? shift | 128 : shift) & 255;
    bytes.push(byte);
    if (!hasNext) {
      return;
    }
  }
  const splitBits = lo >>> 28 & 15 | (hi & 7) << 4;
  const hasMoreBits = !(hi >> 3 == 0);
  bytes.push((hasMoreBits ? splitBits | 128 : splitBits) & 255);
  if (!hasMoreBits) {
    return;
  }
  for (let i = 3; i < 31; i = i + 7) {
    const shift = hi >>> i;
    const hasNext = !(shift >>> 7 == 0);
    const byte = (hasNext ? shift | 128 : shift) & 255;
    bytes.push(byte);
    if (!hasNext) {
      return;
    }
  }
  bytes.push(hi >>> 31 & 1);
}
var TWO_PWR_32_DBL = 4294967296;
function int64FromString(dec) {
  const minus = dec[0] === "-";
  if (minus) {
    dec = dec.slice(1);
  }
  const base = 1e6;
  let lowBits = 0;
  let highBits = 0;
  function add1e6digit(begin, end) {
    const digit1e6 = Number(dec.slice(begin, end));
    highBits *= base;
    lowBits = lowBits * base + digit1e6;
    if (lowBits >= TWO_PWR_32_DBL) {
      highBits = highBits + (lowBits / TWO_PWR_32_DBL | 0);
      lowBits = lowBits % TWO_PWR_32_DBL;
    }
  }
  add1e6digit(-24, -18);
  add1e6digit(-18, -12);
  add1e6digit(-12, -6);
  add1e6digit(-6);
  return minus ? negate(lowBits, highBits) : newBits(lowBits, highBits);
}
function int64ToString(lo, hi) {
  let bits = newBits(lo, hi);
  const negative = bits.hi & 2147483648;
  if (negative) {
    bits = negate(bits.lo, bits.hi);
  }
  const result = uInt64ToString(bits.lo, bits.hi);
  return negative ? "-" + result : result;
}
function uInt64ToString(lo, hi) {
  ({ lo, hi } = toUnsigned(lo, hi));
  if (hi <= 2097151) {
    return String(TWO_PWR_32_DBL * hi + lo);
  }
  const low = lo & 16777215;
  const mid = (lo >>> 24 | hi << 8) & 16777215;
  const high = hi >> 16 & 65535;
  let digitA = low + mid * 6777216 + high * 6710656;
  let digitB = mid + high * 8147497;
  let digitC = high * 2;
  const base = 1e7;
  if (digitA >= base) {
    digitB += Math.floor(digitA / base);
    digitA %= base;
  }
  if (digitB >= base) {
    digitC += Math.floor(digitB / base);
    digitB %= base;
  }
  return digitC.toString() + decimalFrom1e7WithLeadingZeros(digitB) + decimalFrom1e7WithLeadingZeros(digitA);
}
function toUnsigned(lo, hi) {
  return { lo: lo >>> 0, hi: hi >>> 0 };
}
function newBits(lo, hi) {
  return { lo: lo | 0, hi: hi | 0 };
}
function negate(lowBits, highBits) {
  highBits = ~highBits;
  if (lowBits) {
    lowBits = ~lowBits + 1;
  } else {
    highBits += 1;
  }
  return newBits(lowBits, highBits);
}
var decimalFrom1e7WithLeadingZeros = (digit1e7) => {
  const partial = String(digit1e7);
  return "0000000".slice(partial.length) + partial;
};
function varint32write(value, bytes) {
  if (value >= 0) {
    while (value > 127) {
      bytes.push(value & 127 | 128);
      value = value >>> 7;
    }
    bytes.push(value);
  } else {
    for (let i = 0; i < 9; i++) {
      bytes.push(value & 127 | 128);
      value = value >> 7;
    }
    bytes.push(1);
  }
}
function varint32read() {
  let b = this.buf[this.pos++];
  let result = b & 127;
  if ((b & 128) == 0) {
    this.assertBounds();
    return result;
  }
  b = this.buf[this.pos++];
  result |= (b & 127) << 7;
  if ((b & 128) == 0) {
    this.assertBounds();
    return result;
  }
  b = this.buf[this.pos++];
  result |= (b & 127) << 14;
  if ((b & 128) == 0) {
    this.assertBounds();
    return result;
  }
  b = this.buf[this.pos++];
  result |= (b & 127) << 21;
  if ((b & 128) == 0) {
    this.assertBounds();
    return result;
  }
  b = this.buf[this.pos++];
  result |= (b & 15) << 28;
  for (let readBytes = 5; (b & 128) !== 0 && readBytes < 10; readBytes++)
    b = this.buf[this.pos++];
  if ((b & 128) != 0)
    throw new Error("invalid varint");
  this.assertBounds();
  return result >>> 0;
}

// node_modules/@bufbuild/protobuf/dist/esm/proto-int64.js
var protoInt64 = /* @__PURE__ */ makeInt64Support();
function makeInt64Support() {
  const dv = new DataView(new ArrayBuffer(8));
  const ok = typeof BigInt === "function" && typeof dv.getBigInt64 === "function" && typeof dv.getBigUint64 === "function" && typeof dv.setBigInt64 === "function" && typeof dv.setBigUint64 === "function" && (!!globalThis.Deno || !!globalThis.Bun || typeof process != "object" || typeof process.env != "object" || process.env.BUF_BIGINT_DISABLE !== "1");
  if (ok) {
    const MIN = BigInt("-9223372036854775808");
    const MAX = BigInt("9223372036854775807");
    const UMIN = BigInt("0");
    const UMAX = BigInt("18446744073709551615");
    return {
      zero: BigInt(0),
      supported: true,
      parse(value) {
        const bi = typeof value == "bigint" ? value : BigInt(value);
        if (bi > MAX || bi < MIN) {
          throw new Error(`invalid int64: ${value}`);
        }
        return bi;
      },
      uParse(value) {
        const bi = typeof value == "bigint" ? value : BigInt(value);
        if (bi > UMAX || bi < UMIN) {
          throw new Error(`invalid uint64: ${value}`);
        }
        return bi;
      },
      enc(value) {
        dv.setBigInt64(0, this.parse(value), true);
        return {
          lo: dv.getInt32(0, true),
          hi: dv.getInt32(4, true)
        };
      },
      uEnc(value) {
        dv.setBigInt64(0, this.uParse(value), true);
        return {
          lo: dv.getInt32(0, true),
          hi: dv.getInt32(4, true)
        };
      },
      dec(lo, hi) {
        dv.setInt32(0, lo, true);
        dv.setInt32(4, hi, true);
        return dv.getBigInt64(0, true);
      },
      uDec(lo, hi) {
        dv.setInt32(0, lo, true);
        dv.setInt32(4, hi, true);
        return dv.getBigUint64(0, true);
      }
    };
  }
  return {
    zero: "0",
    supported: false,
    parse(value) {
      if (typeof value != "string") {
        value = value.toString();
      }
      assertInt64String(value);
      return value;
    },
    uParse(value) {
      if (typeof value != "string") {
        value = value.toString();
      }
      assertUInt64String(value);
      return value;
    },
    enc(value) {
      if (typeof value != "string") {
        value = value.toString();
      }
      assertInt64String(value);
      return int64FromString(value);
    },
    uEnc(value) {
      if (typeof value != "string") {
        value = value.toString();
      }
      assertUInt64String(value);
      return int64FromString(value);
    },
    dec(lo, hi) {
      return int64ToString(lo, hi);
    },
    uDec(lo, hi) {
      return uInt64ToString(lo, hi);
    }
  };
}
function assertInt64String(value) {
  if (!/^-?[0-9]+$/.test(value)) {
    throw new Error("invalid int64: " + value);
  }
}
function assertUInt64String(value) {
  if (!/^[0-9]+$/.test(value)) {
    throw new Error("invalid uint64: " + value);
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/scalar.js
function scalarZeroValue(type, longAsString) {
  switch (type) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return 0;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SFIXED64:
    case ScalarType.FIXED64:
    case ScalarType.SINT64:
      return longAsString ? "0" : protoInt64.zero;
    case ScalarType.BYTES:
      return new Uint8Array(0);
    default:
      return 0;
  }
}
function isScalarZeroValue(type, value) {
  switch (type) {
    case ScalarType.BOOL:
      return value === false;
    case ScalarType.STRING:
      return value === "";
    case ScalarType.BYTES:
      return value instanceof Uint8Array && !value.byteLength;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return Object.is(value, 0);
    default:
      return value == 0;
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/unsafe.js
var IMPLICIT = 2;
var unsafeLocal = Symbol.for("reflect unsafe local");
function unsafeOneofCase(target, oneof) {
  const c = target[oneof.localName].case;
  if (c === void 0) {
    return c;
  }
  return oneof.fields.find((f) => f.localName === c);
}
function unsafeIsSet(target, field) {
  const name = field.localName;
  if (field.oneof) {
    return target[field.oneof.localName].case === name;
  }
  if (field.presence != IMPLICIT) {
    return target[name] !== void 0 && Object.prototype.hasOwnProperty.call(target, name);
  }
  switch (field.fieldKind) {
    case "list":
      return target[name].length > 0;
    case "map":
      return Object.keys(target[name]).length > 0;
    case "scalar":
      return !isScalarZeroValue(field.scalar, target[name]);
    case "enum":
      return target[name] !== field.enum.values[0].number;
  }
  throw new Error("message field with implicit presence");
}
function unsafeIsSetExplicit(target, localName) {
  return Object.prototype.hasOwnProperty.call(target, localName) && target[localName] !== void 0;
}
function unsafeGet(target, field) {
  if (field.oneof) {
    const oneof = target[field.oneof.localName];
    if (oneof.case === field.localName) {
      return oneof.value;
    }
    return void 0;
  }
  return target[field.localName];
}
function unsafeSet(target, field, value) {
  if (field.oneof) {
    target[field.oneof.localName] = {
      case: field.localName,
      value
    };
  } else {
    target[field.localName] = value;
  }
}
function unsafeClear(target, field) {
  const name = field.localName;
  if (field.oneof) {
    const oneofLocalName = field.oneof.localName;
    if (target[oneofLocalName].case === name) {
      target[oneofLocalName] = { case: void 0 };
    }
  } else if (field.presence != IMPLICIT) {
    delete target[name];
  } else {
    switch (field.fieldKind) {
      case "map":
        target[name] = {};
        break;
      case "list":
        target[name] = [];
        break;
      case "enum":
        target[name] = field.enum.values[0].number;
        break;
      case "scalar":
        target[name] = scalarZeroValue(field.scalar, field.longAsString);
        break;
    }
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/guard.js
function isObject(arg) {
  return arg !== null && typeof arg == "object" && !Array.isArray(arg);
}
function isReflectList(arg, field) {
  var _a, _b, _c, _d;
  if (isObject(arg) && unsafeLocal in arg && "add" in arg && "field" in arg && typeof arg.field == "function") {
    if (field !== void 0) {
      const a = field;
      const b = arg.field();
      return a.listKind == b.listKind && a.scalar === b.scalar && ((_a = a.message) === null || _a === void 0 ? void 0 : _a.typeName) === ((_b = b.message) === null || _b === void 0 ? void 0 : _b.typeName) && ((_c = a.enum) === null || _c === void 0 ? void 0 : _c.typeName) === ((_d = b.enum) === null || _d === void 0 ? void 0 : _d.typeName);
    }
    return true;
  }
  return false;
}
function isReflectMap(arg, field) {
  var _a, _b, _c, _d;
  if (isObject(arg) && unsafeLocal in arg && "has" in arg && "field" in arg && typeof arg.field == "function") {
    if (field !== void 0) {
      const a = field, b = arg.field();
      return a.mapKey === b.mapKey && a.mapKind == b.mapKind && a.scalar === b.scalar && ((_a = a.message) === null || _a === void 0 ? void 0 : _a.typeName) === ((_b = b.message) === null || _b === void 0 ? void 0 : _b.typeName) && ((_c = a.enum) === null || _c === void 0 ? void 0 : _c.typeName) === ((_d = b.enum) === null || _d === void 0 ? void 0 : _d.typeName);
    }
    return true;
  }
  return false;
}
function isReflectMessage(arg, messageDesc2) {
  return isObject(arg) && unsafeLocal in arg && "desc" in arg && isObject(arg.desc) && arg.desc.kind === "message" && (messageDesc2 === void 0 || arg.desc.typeName == messageDesc2.typeName);
}

// node_modules/@bufbuild/protobuf/dist/esm/wkt/wrappers.js
function isWrapper(arg) {
  return isWrapperTypeName(arg.$typeName);
}
function isWrapperDesc(messageDesc2) {
  const f = messageDesc2.fields[0];
  return isWrapperTypeName(messageDesc2.typeName) && f !== void 0 && f.fieldKind == "scalar" && f.name == "value" && f.number == 1;
}
function hasCustomJsonRepresentation(desc) {
  switch (desc.typeName) {
    case "google.protobuf.Any":
    case "google.protobuf.Timestamp":
    case "google.protobuf.Duration":
    case "google.protobuf.FieldMask":
    case "google.protobuf.Struct":
    case "google.protobuf.Value":
    case "google.protobuf.ListValue":
      return true;
    default:
      return isWrapperDesc(desc);
  }
}
function isWrapperTypeName(name) {
  return name.startsWith("google.protobuf.") && [
    "DoubleValue",
    "FloatValue",
    "Int64Value",
    "UInt64Value",
    "Int32Value",
    "UInt32Value",
    "BoolValue",
    "StringValue",
    "BytesValue"
  ].includes(name.substring(16));
}

// node_modules/@bufbuild/protobuf/dist/esm/create.js
var EDITION_PROTO3 = 999;
var EDITION_PROTO2 = 998;
var IMPLICIT2 = 2;
function create(schema, init) {
  if (isMessage(init, schema)) {
    return init;
  }
  const message = createZeroMessage(schema);
  if (init !== void 0) {
    initMessage(schema, message, init);
  }
  return message;
}
function initMessage(messageDesc2, message, init) {
  for (const member of messageDesc2.members) {
    let value = init[member.localName];
    if (value == null) {
      continue;
    }
    let field;
    if (member.kind == "oneof") {
      const oneofField = unsafeOneofCase(init, member);
      if (!oneofField) {
        continue;
      }
      field = oneofField;
      value = unsafeGet(init, oneofField);
    } else {
      field = member;
    }
    switch (field.fieldKind) {
      case "message":
        value = toMessage(field, value);
        break;
      case "scalar":
        value = initScalar(field, value);
        break;
      case "list":
        value = initList(field, value);
        break;
      case "map":
        value = initMap(field, value);
        break;
    }
    unsafeSet(message, field, value);
  }
  return message;
}
function initScalar(field, value) {
  if (field.scalar == ScalarType.BYTES) {
    return toU8Arr(value);
  }
  return value;
}
function initMap(field, value) {
  if (isObject(value)) {
    if (field.scalar == ScalarType.BYTES) {
      return convertObjectValues(value, toU8Arr);
    }
    if (field.mapKind == "message") {
      return convertObjectValues(value, (val) => toMessage(field, val));
    }
  }
  return value;
}
function initList(field, value) {
  if (Array.isArray(value)) {
    if (field.scalar == ScalarType.BYTES) {
      return value.map(toU8Arr);
    }
    if (field.listKind == "message") {
      return value.map((item) => toMessage(field, item));
    }
  }
  return value;
}
function toMessage(field, value) {
  if (field.fieldKind == "message" && !field.oneof && isWrapperDesc(field.message)) {
    return initScalar(field.message.fields[0], value);
  }
  if (isObject(value)) {
    if (field.message.typeName == "google.protobuf.Struct" && field.parent.typeName !== "google.protobuf.Value") {
      return value;
    }
    if (!isMessage(value, field.message)) {
      return create(field.message, value);
    }
  }
  return value;
}
function toU8Arr(value) {
  return Array.isArray(value) ? new Uint8Array(value) : value;
}
function convertObjectValues(obj, fn) {
  const ret = {};
  for (const entry of Object.entries(obj)) {
    ret[entry[0]] = fn(entry[1]);
  }
  return ret;
}
var tokenZeroMessageField = Symbol();
var messagePrototypes = /* @__PURE__ */ new WeakMap();
function createZeroMessage(desc) {
  let msg;
  if (!needsPrototypeChain(desc)) {
    msg = {
      $typeName: desc.typeName
    };
    for (const member of desc.members) {
      if (member.kind == "oneof" || member.presence == IMPLICIT2) {
        msg[member.localName] = createZeroField(member);
      }
    }
  } else {
    const cached = messagePrototypes.get(desc);
    let prototype;
    let members;
    if (cached) {
      ({ prototype, members } = cached);
    } else {
      prototype = {};
      members = /* @__PURE__ */ new Set();
      for (const member of desc.members) {
        if (member.kind == "oneof") {
          continue;
        }
        if (member.fieldKind != "scalar" && member.fieldKind != "enum") {
          continue;
        }
        if (member.presence == IMPLICIT2) {
          continue;
        }
        members.add(member);
        prototype[member.localName] = createZeroField(member);
      }
      messagePrototypes.set(desc, { prototype, members });
    }
    msg = Object.create(prototype);
    msg.$typeName = desc.typeName;
    for (const member of desc.members) {
      if (members.has(member)) {
        continue;
      }
      if (member.kind == "field") {
        if (member.fieldKind == "message") {
          continue;
        }
        if (member.fieldKind == "scalar" || member.fieldKind == "enum") {
          if (member.presence != IMPLICIT2) {
            continue;
          }
        }
      }
      msg[member.localName] = createZeroField(member);
    }
  }
  return msg;
}
function needsPrototypeChain(desc) {
  switch (desc.file.edition) {
    case EDITION_PROTO3:
      return false;
    case EDITION_PROTO2:
      return true;
    default:
      return desc.fields.some((f) => f.presence != IMPLICIT2 && f.fieldKind != "message" && !f.oneof);
  }
}
function createZeroField(field) {
  if (field.kind == "oneof") {
    return { case: void 0 };
  }
  if (field.fieldKind == "list") {
    return [];
  }
  if (field.fieldKind == "map") {
    return {};
  }
  if (field.fieldKind == "message") {
    return tokenZeroMessageField;
  }
  const defaultValue = field.getDefaultValue();
  if (defaultValue !== void 0) {
    return field.fieldKind == "scalar" && field.longAsString ? defaultValue.toString() : defaultValue;
  }
  return field.fieldKind == "scalar" ? scalarZeroValue(field.scalar, field.longAsString) : field.enum.values[0].number;
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/error.js
var errorNames = [
  "FieldValueInvalidError",
  "FieldListRangeError",
  "ForeignFieldError"
];
var FieldError = class extends Error {
  constructor(fieldOrOneof, message, name = "FieldValueInvalidError") {
    super(message);
    this.name = name;
    this.field = () => fieldOrOneof;
  }
};
function isFieldError(arg) {
  return arg instanceof Error && errorNames.includes(arg.name) && "field" in arg && typeof arg.field == "function";
}

// node_modules/@bufbuild/protobuf/dist/esm/wire/text-encoding.js
var symbol = Symbol.for("@bufbuild/protobuf/text-encoding");
function getTextEncoding() {
  if (globalThis[symbol] == void 0) {
    const te = new globalThis.TextEncoder();
    const td = new globalThis.TextDecoder();
    let tdStrict;
    globalThis[symbol] = {
      encodeUtf8(text2) {
        return te.encode(text2);
      },
      decodeUtf8(bytes, strict) {
        if (strict) {
          if (tdStrict === void 0) {
            tdStrict = new globalThis.TextDecoder("utf-8", { fatal: true });
          }
          return tdStrict.decode(bytes);
        }
        return td.decode(bytes);
      },
      checkUtf8(text2) {
        try {
          encodeURIComponent(text2);
          return true;
        } catch (_) {
          return false;
        }
      }
    };
  }
  return globalThis[symbol];
}

// node_modules/@bufbuild/protobuf/dist/esm/wire/binary-encoding.js
var WireType;
(function(WireType2) {
  WireType2[WireType2["Varint"] = 0] = "Varint";
  WireType2[WireType2["Bit64"] = 1] = "Bit64";
  WireType2[WireType2["LengthDelimited"] = 2] = "LengthDelimited";
  WireType2[WireType2["StartGroup"] = 3] = "StartGroup";
  WireType2[WireType2["EndGroup"] = 4] = "EndGroup";
  WireType2[WireType2["Bit32"] = 5] = "Bit32";
})(WireType || (WireType = {}));
var FLOAT32_MAX = 34028234663852886e22;
var FLOAT32_MIN = -34028234663852886e22;
var UINT32_MAX = 4294967295;
var INT32_MAX = 2147483647;
var INT32_MIN = -2147483648;
var BinaryWriter = class {
  constructor(encodeUtf8 = getTextEncoding().encodeUtf8) {
    this.encodeUtf8 = encodeUtf8;
    this.stack = [];
    this.chunks = [];
    this.buf = [];
  }
  /**
   * Return all bytes written and reset this writer.
   */
  finish() {
    if (this.buf.length) {
      this.chunks.push(new Uint8Array(this.buf));
      this.buf = [];
    }
    let len = 0;
    for (let i = 0; i < this.chunks.length; i++)
      len += this.chunks[i].length;
    let bytes = new Uint8Array(len);
    let offset = 0;
    for (let i = 0; i < this.chunks.length; i++) {
      bytes.set(this.chunks[i], offset);
      offset += this.chunks[i].length;
    }
    this.chunks = [];
    return bytes;
  }
  /**
   * Start a new fork for length-delimited data like a message
   * or a packed repeated field.
   *
   * Must be joined later with `join()`.
   */
  fork() {
    this.stack.push({ chunks: this.chunks, buf: this.buf });
    this.chunks = [];
    this.buf = [];
    return this;
  }
  /**
   * Join the last fork. Write its length and bytes, then
   * return to the previous state.
   */
  join() {
    let chunk = this.finish();
    let prev = this.stack.pop();
    if (!prev)
      throw new Error("invalid state, fork stack empty");
    this.chunks = prev.chunks;
    this.buf = prev.buf;
    this.uint32(chunk.byteLength);
    return this.raw(chunk);
  }
  /**
   * Writes a tag (field number and wire type).
   *
   * Equivalent to `uint32( (fieldNo << 3 | type) >>> 0 )`.
   *
   * Generated code should compute the tag ahead of time and call `uint32()`.
   */
  tag(fieldNo, type) {
    return this.uint32((fieldNo << 3 | type) >>> 0);
  }
  /**
   * Write a chunk of raw bytes.
   */
  raw(chunk) {
    if (this.buf.length) {
      this.chunks.push(new Uint8Array(this.buf));
      this.buf = [];
    }
    this.chunks.push(chunk);
    return this;
  }
  /**
   * Write a `uint32` value, an unsigned 32 bit varint.
   */
  uint32(value) {
    assertUInt32(value);
    while (value > 127) {
      this.buf.push(value & 127 | 128);
      value = value >>> 7;
    }
    this.buf.push(value);
    return this;
  }
  /**
   * Write a `int32` value, a signed 32 bit varint.
   */
  int32(value) {
    assertInt32(value);
    varint32write(value, this.buf);
    return this;
  }
  /**
   * Write a `bool` value, a varint.
   */
  bool(value) {
    this.buf.push(value ? 1 : 0);
    return this;
  }
  /**
   * Write a `bytes` value, length-delimited arbitrary data.
   */
  bytes(value) {
    this.uint32(value.byteLength);
    return this.raw(value);
  }
  /**
   * Write a `string` value, length-delimited data converted to UTF-8 text.
   */
  string(value) {
    let chunk = this.encodeUtf8(value);
    this.uint32(chunk.byteLength);
    return this.raw(chunk);
  }
  /**
   * Write a `float` value, 32-bit floating point number.
   */
  float(value) {
    assertFloat32(value);
    let chunk = new Uint8Array(4);
    new DataView(chunk.buffer).setFloat32(0, value, true);
    return this.raw(chunk);
  }
  /**
   * Write a `double` value, a 64-bit floating point number.
   */
  double(value) {
    let chunk = new Uint8Array(8);
    new DataView(chunk.buffer).setFloat64(0, value, true);
    return this.raw(chunk);
  }
  /**
   * Write a `fixed32` value, an unsigned, fixed-length 32-bit integer.
   */
  fixed32(value) {
    assertUInt32(value);
    let chunk = new Uint8Array(4);
    new DataView(chunk.buffer).setUint32(0, value, true);
    return this.raw(chunk);
  }
  /**
   * Write a `sfixed32` value, a signed, fixed-length 32-bit integer.
   */
  sfixed32(value) {
    assertInt32(value);
    let chunk = new Uint8Array(4);
    new DataView(chunk.buffer).setInt32(0, value, true);
    return this.raw(chunk);
  }
  /**
   * Write a `sint32` value, a signed, zigzag-encoded 32-bit varint.
   */
  sint32(value) {
    assertInt32(value);
    value = (value << 1 ^ value >> 31) >>> 0;
    varint32write(value, this.buf);
    return this;
  }
  /**
   * Write a `sfixed64` value, a signed, fixed-length 64-bit integer.
   */
  sfixed64(value) {
    let chunk = new Uint8Array(8), view = new DataView(chunk.buffer), tc = protoInt64.enc(value);
    view.setInt32(0, tc.lo, true);
    view.setInt32(4, tc.hi, true);
    return this.raw(chunk);
  }
  /**
   * Write a `fixed64` value, an unsigned, fixed-length 64 bit integer.
   */
  fixed64(value) {
    let chunk = new Uint8Array(8), view = new DataView(chunk.buffer), tc = protoInt64.uEnc(value);
    view.setInt32(0, tc.lo, true);
    view.setInt32(4, tc.hi, true);
    return this.raw(chunk);
  }
  /**
   * Write a `int64` value, a signed 64-bit varint.
   */
  int64(value) {
    let tc = protoInt64.enc(value);
    varint64write(tc.lo, tc.hi, this.buf);
    return this;
  }
  /**
   * Write a `sint64` value, a signed, zig-zag-encoded 64-bit varint.
   */
  sint64(value) {
    const tc = protoInt64.enc(value), sign = tc.hi >> 31, lo = tc.lo << 1 ^ sign, hi = (tc.hi << 1 | tc.lo >>> 31) ^ sign;
    varint64write(lo, hi, this.buf);
    return this;
  }
  /**
   * Write a `uint64` value, an unsigned 64-bit varint.
   */
  uint64(value) {
    const tc = protoInt64.uEnc(value);
    varint64write(tc.lo, tc.hi, this.buf);
    return this;
  }
};
var BinaryReader = class {
  constructor(buf, decodeUtf8 = getTextEncoding().decodeUtf8) {
    this.decodeUtf8 = decodeUtf8;
    this.varint64 = varint64read;
    this.uint32 = varint32read;
    this.buf = buf;
    this.len = buf.length;
    this.pos = 0;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  /**
   * Reads a tag - field number and wire type. Tags are uint32 varints; values
   * that do not fit in uint32 are rejected.
   */
  tag() {
    const start = this.pos;
    const tag = this.uint32();
    const bytesRead = this.pos - start;
    if (bytesRead > 5 || bytesRead == 5 && this.buf[this.pos - 1] > 15) {
      throw new Error("illegal tag: varint overflows uint32");
    }
    const fieldNo = tag >>> 3;
    const wireType = tag & 7;
    if (fieldNo <= 0 || wireType > 5) {
      throw new Error("illegal tag: field no " + fieldNo + " wire type " + wireType);
    }
    return [fieldNo, wireType];
  }
  /**
   * Skip one element and return the skipped data.
   *
   * When skipping StartGroup, provide the tags field number to check for
   * matching field number in the EndGroup tag. Recursion into nested groups
   * is guarded by the `recursionLimit` argument: When the limit is reached,
   * this method throws.
   */
  skip(wireType, fieldNo, recursionLimit = 100) {
    let start = this.pos;
    switch (wireType) {
      case WireType.Varint:
        while (this.buf[this.pos++] & 128) {
        }
        break;
      // @ts-ignore TS7029: Fallthrough case in switch -- ignore instead of expect-error for compiler settings without noFallthroughCasesInSwitch: true
      case WireType.Bit64:
        this.pos += 4;
      case WireType.Bit32:
        this.pos += 4;
        break;
      case WireType.LengthDelimited:
        let len = this.uint32();
        this.pos += len;
        break;
      case WireType.StartGroup:
        if (recursionLimit <= 0) {
          throw new Error("maximum recursion depth reached");
        }
        for (; ; ) {
          const [fn, wt] = this.tag();
          if (wt === WireType.EndGroup) {
            if (fieldNo !== void 0 && fn !== fieldNo) {
              throw new Error("invalid end group tag");
            }
            break;
          }
          this.skip(wt, fn, recursionLimit - 1);
        }
        break;
      default:
        throw new Error("cant skip wire type " + wireType);
    }
    this.assertBounds();
    return this.buf.subarray(start, this.pos);
  }
  /**
   * Throws error if position in byte array is out of range.
   */
  assertBounds() {
    if (this.pos > this.len)
      throw new RangeError("premature EOF");
  }
  /**
   * Read a `int32` field, a signed 32 bit varint.
   */
  int32() {
    return this.uint32() | 0;
  }
  /**
   * Read a `sint32` field, a signed, zigzag-encoded 32-bit varint.
   */
  sint32() {
    let zze = this.uint32();
    return zze >>> 1 ^ -(zze & 1);
  }
  /**
   * Read a `int64` field, a signed 64-bit varint.
   */
  int64() {
    return protoInt64.dec(...this.varint64());
  }
  /**
   * Read a `uint64` field, an unsigned 64-bit varint.
   */
  uint64() {
    return protoInt64.uDec(...this.varint64());
  }
  /**
   * Read a `sint64` field, a signed, zig-zag-encoded 64-bit varint.
   */
  sint64() {
    let [lo, hi] = this.varint64();
    let s = -(lo & 1);
    lo = (lo >>> 1 | (hi & 1) << 31) ^ s;
    hi = hi >>> 1 ^ s;
    return protoInt64.dec(lo, hi);
  }
  /**
   * Read a `bool` field, a variant.
   */
  bool() {
    let [lo, hi] = this.varint64();
    return lo !== 0 || hi !== 0;
  }
  /**
   * Read a `fixed32` field, an unsigned, fixed-length 32-bit integer.
   */
  fixed32() {
    return this.view.getUint32((this.pos += 4) - 4, true);
  }
  /**
   * Read a `sfixed32` field, a signed, fixed-length 32-bit integer.
   */
  sfixed32() {
    return this.view.getInt32((this.pos += 4) - 4, true);
  }
  /**
   * Read a `fixed64` field, an unsigned, fixed-length 64 bit integer.
   */
  fixed64() {
    return protoInt64.uDec(this.sfixed32(), this.sfixed32());
  }
  /**
   * Read a `fixed64` field, a signed, fixed-length 64-bit integer.
   */
  sfixed64() {
    return protoInt64.dec(this.sfixed32(), this.sfixed32());
  }
  /**
   * Read a `float` field, 32-bit floating point number.
   */
  float() {
    return this.view.getFloat32((this.pos += 4) - 4, true);
  }
  /**
   * Read a `double` field, a 64-bit floating point number.
   */
  double() {
    return this.view.getFloat64((this.pos += 8) - 8, true);
  }
  /**
   * Read a `bytes` field, length-delimited arbitrary data.
   */
  bytes() {
    let len = this.uint32(), start = this.pos;
    this.pos += len;
    this.assertBounds();
    return this.buf.subarray(start, start + len);
  }
  /**
   * Read a `string` field, length-delimited data converted to UTF-8 text. If
   * `strict` is true, throw on invalid UTF-8 instead of substituting U+FFFD.
   */
  string(strict) {
    return this.decodeUtf8(this.bytes(), strict);
  }
};
function assertInt32(arg) {
  if (typeof arg == "string") {
    arg = Number(arg);
  } else if (typeof arg != "number") {
    throw new Error("invalid int32: " + typeof arg);
  }
  if (!Number.isInteger(arg) || arg > INT32_MAX || arg < INT32_MIN)
    throw new Error("invalid int32: " + arg);
}
function assertUInt32(arg) {
  if (typeof arg == "string") {
    arg = Number(arg);
  } else if (typeof arg != "number") {
    throw new Error("invalid uint32: " + typeof arg);
  }
  if (!Number.isInteger(arg) || arg > UINT32_MAX || arg < 0)
    throw new Error("invalid uint32: " + arg);
}
function assertFloat32(arg) {
  if (typeof arg == "string") {
    const o = arg;
    arg = Number(arg);
    if (Number.isNaN(arg) && o !== "NaN") {
      throw new Error("invalid float32: " + o);
    }
  } else if (typeof arg != "number") {
    throw new Error("invalid float32: " + typeof arg);
  }
  if (Number.isFinite(arg) && (arg > FLOAT32_MAX || arg < FLOAT32_MIN))
    throw new Error("invalid float32: " + arg);
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/reflect-check.js
function checkField(field, value) {
  const check = field.fieldKind == "list" ? isReflectList(value, field) : field.fieldKind == "map" ? isReflectMap(value, field) : checkSingular(field, value);
  if (check === true) {
    return void 0;
  }
  let reason;
  switch (field.fieldKind) {
    case "list":
      reason = `expected ${formatReflectList(field)}, got ${formatVal(value)}`;
      break;
    case "map":
      reason = `expected ${formatReflectMap(field)}, got ${formatVal(value)}`;
      break;
    default: {
      reason = reasonSingular(field, value, check);
    }
  }
  return new FieldError(field, reason);
}
function checkListItem(field, index, value) {
  const check = checkSingular(field, value);
  if (check !== true) {
    return new FieldError(field, `list item #${index + 1}: ${reasonSingular(field, value, check)}`);
  }
  return void 0;
}
function checkMapEntry(field, key, value) {
  const checkKey = checkScalarValue(key, field.mapKey);
  if (checkKey !== true) {
    return new FieldError(field, `invalid map key: ${reasonSingular({ scalar: field.mapKey }, key, checkKey)}`);
  }
  const checkVal = checkSingular(field, value);
  if (checkVal !== true) {
    return new FieldError(field, `map entry ${formatVal(key)}: ${reasonSingular(field, value, checkVal)}`);
  }
  return void 0;
}
function checkSingular(field, value) {
  if (field.scalar !== void 0) {
    return checkScalarValue(value, field.scalar);
  }
  if (field.enum !== void 0) {
    if (field.enum.open) {
      return checkScalarValue(value, ScalarType.INT32);
    }
    return field.enum.values.some((v) => v.number === value);
  }
  return isReflectMessage(value, field.message);
}
function checkScalarValue(value, scalar) {
  switch (scalar) {
    case ScalarType.DOUBLE:
      return typeof value == "number";
    case ScalarType.FLOAT:
      if (typeof value != "number") {
        return false;
      }
      if (Number.isNaN(value) || !Number.isFinite(value)) {
        return true;
      }
      if (value > FLOAT32_MAX || value < FLOAT32_MIN) {
        return `${value.toFixed()} out of range`;
      }
      return true;
    case ScalarType.INT32:
    case ScalarType.SFIXED32:
    case ScalarType.SINT32:
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return false;
      }
      if (value > INT32_MAX || value < INT32_MIN) {
        return `${value.toFixed()} out of range`;
      }
      return true;
    case ScalarType.FIXED32:
    case ScalarType.UINT32:
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return false;
      }
      if (value > UINT32_MAX || value < 0) {
        return `${value.toFixed()} out of range`;
      }
      return true;
    case ScalarType.BOOL:
      return typeof value == "boolean";
    case ScalarType.STRING:
      if (typeof value != "string") {
        return false;
      }
      return getTextEncoding().checkUtf8(value) || "invalid UTF8";
    case ScalarType.BYTES:
      return value instanceof Uint8Array;
    case ScalarType.INT64:
    case ScalarType.SFIXED64:
    case ScalarType.SINT64:
      if (typeof value == "bigint" || typeof value == "number" || typeof value == "string" && value.length > 0) {
        try {
          protoInt64.parse(value);
          return true;
        } catch (_) {
          return `${value} out of range`;
        }
      }
      return false;
    case ScalarType.FIXED64:
    case ScalarType.UINT64:
      if (typeof value == "bigint" || typeof value == "number" || typeof value == "string" && value.length > 0) {
        try {
          protoInt64.uParse(value);
          return true;
        } catch (_) {
          return `${value} out of range`;
        }
      }
      return false;
  }
}
function reasonSingular(field, val, details) {
  details = typeof details == "string" ? `: ${details}` : `, got ${formatVal(val)}`;
  if (field.scalar !== void 0) {
    return `expected ${scalarTypeDescription(field.scalar)}` + details;
  }
  if (field.enum !== void 0) {
    return `expected ${field.enum.toString()}` + details;
  }
  return `expected ${formatReflectMessage(field.message)}` + details;
}
function formatVal(val) {
  switch (typeof val) {
    case "object":
      if (val === null) {
        return "null";
      }
      if (val instanceof Uint8Array) {
        return `Uint8Array(${val.length})`;
      }
      if (Array.isArray(val)) {
        return `Array(${val.length})`;
      }
      if (isReflectList(val)) {
        return formatReflectList(val.field());
      }
      if (isReflectMap(val)) {
        return formatReflectMap(val.field());
      }
      if (isReflectMessage(val)) {
        return formatReflectMessage(val.desc);
      }
      if (isMessage(val)) {
        return `message ${val.$typeName}`;
      }
      return "object";
    case "string":
      return val.length > 30 ? "string" : `"${val.split('"').join('\\"')}"`;
    case "boolean":
      return String(val);
    case "number":
      return String(val);
    case "bigint":
      return String(val) + "n";
    default:
      return typeof val;
  }
}
function formatReflectMessage(desc) {
  return `ReflectMessage (${desc.typeName})`;
}
function formatReflectList(field) {
  switch (field.listKind) {
    case "message":
      return `ReflectList (${field.message.toString()})`;
    case "enum":
      return `ReflectList (${field.enum.toString()})`;
    case "scalar":
      return `ReflectList (${ScalarType[field.scalar]})`;
  }
}
function formatReflectMap(field) {
  switch (field.mapKind) {
    case "message":
      return `ReflectMap (${ScalarType[field.mapKey]}, ${field.message.toString()})`;
    case "enum":
      return `ReflectMap (${ScalarType[field.mapKey]}, ${field.enum.toString()})`;
    case "scalar":
      return `ReflectMap (${ScalarType[field.mapKey]}, ${ScalarType[field.scalar]})`;
  }
}
function scalarTypeDescription(scalar) {
  switch (scalar) {
    case ScalarType.STRING:
      return "string";
    case ScalarType.BOOL:
      return "boolean";
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return "bigint (int64)";
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return "bigint (uint64)";
    case ScalarType.BYTES:
      return "Uint8Array";
    case ScalarType.DOUBLE:
      return "number (float64)";
    case ScalarType.FLOAT:
      return "number (float32)";
    case ScalarType.FIXED32:
    case ScalarType.UINT32:
      return "number (uint32)";
    case ScalarType.INT32:
    case ScalarType.SFIXED32:
    case ScalarType.SINT32:
      return "number (int32)";
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/reflect.js
var NULL_VALUE = 0;
function reflect(messageDesc2, message, check = true) {
  return new ReflectMessageImpl(messageDesc2, message, check);
}
var messageSortedFields = /* @__PURE__ */ new WeakMap();
var ReflectMessageImpl = class {
  get sortedFields() {
    const cached = messageSortedFields.get(this.desc);
    if (cached) {
      return cached;
    }
    const sortedFields = this.desc.fields.concat().sort((a, b) => a.number - b.number);
    messageSortedFields.set(this.desc, sortedFields);
    return sortedFields;
  }
  constructor(messageDesc2, message, check = true) {
    this.lists = /* @__PURE__ */ new Map();
    this.maps = /* @__PURE__ */ new Map();
    this.check = check;
    this.desc = messageDesc2;
    this.message = this[unsafeLocal] = message !== null && message !== void 0 ? message : create(messageDesc2);
    this.fields = messageDesc2.fields;
    this.oneofs = messageDesc2.oneofs;
    this.members = messageDesc2.members;
  }
  findNumber(number) {
    if (!this._fieldsByNumber) {
      this._fieldsByNumber = new Map(this.desc.fields.map((f) => [f.number, f]));
    }
    return this._fieldsByNumber.get(number);
  }
  oneofCase(oneof) {
    assertOwn(this.message, oneof);
    return unsafeOneofCase(this.message, oneof);
  }
  isSet(field) {
    assertOwn(this.message, field);
    return unsafeIsSet(this.message, field);
  }
  clear(field) {
    assertOwn(this.message, field);
    unsafeClear(this.message, field);
  }
  get(field) {
    assertOwn(this.message, field);
    const value = unsafeGet(this.message, field);
    switch (field.fieldKind) {
      case "list":
        let list = this.lists.get(field);
        if (!list || list[unsafeLocal] !== value) {
          this.lists.set(
            field,
            // biome-ignore lint/suspicious/noAssignInExpressions: no
            list = new ReflectListImpl(field, value, this.check)
          );
        }
        return list;
      case "map":
        let map = this.maps.get(field);
        if (!map || map[unsafeLocal] !== value) {
          this.maps.set(
            field,
            // biome-ignore lint/suspicious/noAssignInExpressions: no
            map = new ReflectMapImpl(field, value, this.check)
          );
        }
        return map;
      case "message":
        return messageToReflect(field, value, this.check);
      case "scalar":
        return value === void 0 ? scalarZeroValue(field.scalar, false) : longToReflect(field, value);
      case "enum":
        return value !== null && value !== void 0 ? value : field.enum.values[0].number;
    }
  }
  set(field, value) {
    assertOwn(this.message, field);
    if (this.check) {
      const err = checkField(field, value);
      if (err) {
        throw err;
      }
    }
    let local;
    if (field.fieldKind == "message") {
      local = messageToLocal(field, value);
    } else if (isReflectMap(value) || isReflectList(value)) {
      local = value[unsafeLocal];
    } else {
      local = longToLocal(field, value);
    }
    unsafeSet(this.message, field, local);
  }
  getUnknown() {
    return this.message.$unknown;
  }
  setUnknown(value) {
    this.message.$unknown = value;
  }
};
function assertOwn(owner, member) {
  if (member.parent.typeName !== owner.$typeName) {
    throw new FieldError(member, `cannot use ${member.toString()} with message ${owner.$typeName}`, "ForeignFieldError");
  }
}
var ReflectListImpl = class {
  field() {
    return this._field;
  }
  get size() {
    return this._arr.length;
  }
  constructor(field, unsafeInput, check) {
    this._field = field;
    this._arr = this[unsafeLocal] = unsafeInput;
    this.check = check;
  }
  get(index) {
    const item = this._arr[index];
    return item === void 0 ? void 0 : listItemToReflect(this._field, item, this.check);
  }
  set(index, item) {
    if (index < 0 || index >= this._arr.length) {
      throw new FieldError(this._field, `list item #${index + 1}: out of range`);
    }
    if (this.check) {
      const err = checkListItem(this._field, index, item);
      if (err) {
        throw err;
      }
    }
    this._arr[index] = listItemToLocal(this._field, item);
  }
  add(item) {
    if (this.check) {
      const err = checkListItem(this._field, this._arr.length, item);
      if (err) {
        throw err;
      }
    }
    this._arr.push(listItemToLocal(this._field, item));
    return void 0;
  }
  clear() {
    this._arr.splice(0, this._arr.length);
  }
  [Symbol.iterator]() {
    return this.values();
  }
  keys() {
    return this._arr.keys();
  }
  *values() {
    for (const item of this._arr) {
      yield listItemToReflect(this._field, item, this.check);
    }
  }
  *entries() {
    for (let i = 0; i < this._arr.length; i++) {
      yield [i, listItemToReflect(this._field, this._arr[i], this.check)];
    }
  }
};
var ReflectMapImpl = class {
  constructor(field, unsafeInput, check = true) {
    this.obj = this[unsafeLocal] = unsafeInput !== null && unsafeInput !== void 0 ? unsafeInput : {};
    this.check = check;
    this._field = field;
  }
  field() {
    return this._field;
  }
  set(key, value) {
    if (this.check) {
      const err = checkMapEntry(this._field, key, value);
      if (err) {
        throw err;
      }
    }
    this.obj[mapKeyToLocal(key)] = mapValueToLocal(this._field, value);
    return this;
  }
  delete(key) {
    const k = mapKeyToLocal(key);
    const has = Object.prototype.hasOwnProperty.call(this.obj, k);
    if (has) {
      delete this.obj[k];
    }
    return has;
  }
  clear() {
    for (const key of Object.keys(this.obj)) {
      delete this.obj[key];
    }
  }
  get(key) {
    let val = this.obj[mapKeyToLocal(key)];
    if (val !== void 0) {
      val = mapValueToReflect(this._field, val, this.check);
    }
    return val;
  }
  has(key) {
    return Object.prototype.hasOwnProperty.call(this.obj, mapKeyToLocal(key));
  }
  *keys() {
    for (const objKey of Object.keys(this.obj)) {
      yield mapKeyToReflect(objKey, this._field.mapKey);
    }
  }
  *entries() {
    for (const objEntry of Object.entries(this.obj)) {
      yield [
        mapKeyToReflect(objEntry[0], this._field.mapKey),
        mapValueToReflect(this._field, objEntry[1], this.check)
      ];
    }
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  get size() {
    return Object.keys(this.obj).length;
  }
  *values() {
    for (const val of Object.values(this.obj)) {
      yield mapValueToReflect(this._field, val, this.check);
    }
  }
  forEach(callbackfn, thisArg) {
    for (const mapEntry of this.entries()) {
      callbackfn.call(thisArg, mapEntry[1], mapEntry[0], this);
    }
  }
};
function messageToLocal(field, value) {
  if (!isReflectMessage(value)) {
    return value;
  }
  if (isWrapper(value.message) && !field.oneof && field.fieldKind == "message") {
    return value.message.value;
  }
  if (value.desc.typeName == "google.protobuf.Struct" && field.parent.typeName != "google.protobuf.Value") {
    return wktStructToLocal(value.message);
  }
  return value.message;
}
function messageToReflect(field, value, check) {
  if (value !== void 0) {
    if (isWrapperDesc(field.message) && !field.oneof && field.fieldKind == "message") {
      value = {
        $typeName: field.message.typeName,
        value: longToReflect(field.message.fields[0], value)
      };
    } else if (field.message.typeName == "google.protobuf.Struct" && field.parent.typeName != "google.protobuf.Value" && isObject(value)) {
      value = wktStructToReflect(value);
    }
  }
  return new ReflectMessageImpl(field.message, value, check);
}
function listItemToLocal(field, value) {
  if (field.listKind == "message") {
    return messageToLocal(field, value);
  }
  return longToLocal(field, value);
}
function listItemToReflect(field, value, check) {
  if (field.listKind == "message") {
    return messageToReflect(field, value, check);
  }
  return longToReflect(field, value);
}
function mapValueToLocal(field, value) {
  if (field.mapKind == "message") {
    return messageToLocal(field, value);
  }
  return longToLocal(field, value);
}
function mapValueToReflect(field, value, check) {
  if (field.mapKind == "message") {
    return messageToReflect(field, value, check);
  }
  return value;
}
function mapKeyToLocal(key) {
  return typeof key == "string" || typeof key == "number" ? key : String(key);
}
function mapKeyToReflect(key, type) {
  switch (type) {
    case ScalarType.STRING:
      return key;
    case ScalarType.INT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT32:
    case ScalarType.SFIXED32:
    case ScalarType.SINT32: {
      const n = Number.parseInt(key);
      if (Number.isFinite(n)) {
        return n;
      }
      break;
    }
    case ScalarType.BOOL:
      switch (key) {
        case "true":
          return true;
        case "false":
          return false;
      }
      break;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      try {
        return protoInt64.uParse(key);
      } catch (_a) {
      }
      break;
    default:
      try {
        return protoInt64.parse(key);
      } catch (_b) {
      }
      break;
  }
  return key;
}
function longToReflect(field, value) {
  switch (field.scalar) {
    case ScalarType.INT64:
    case ScalarType.SFIXED64:
    case ScalarType.SINT64:
      if ("longAsString" in field && field.longAsString && typeof value == "string") {
        value = protoInt64.parse(value);
      }
      break;
    case ScalarType.FIXED64:
    case ScalarType.UINT64:
      if ("longAsString" in field && field.longAsString && typeof value == "string") {
        value = protoInt64.uParse(value);
      }
      break;
  }
  return value;
}
function longToLocal(field, value) {
  switch (field.scalar) {
    case ScalarType.INT64:
    case ScalarType.SFIXED64:
    case ScalarType.SINT64:
      if ("longAsString" in field && field.longAsString) {
        value = String(value);
      } else if (typeof value == "string" || typeof value == "number") {
        value = protoInt64.parse(value);
      }
      break;
    case ScalarType.FIXED64:
    case ScalarType.UINT64:
      if ("longAsString" in field && field.longAsString) {
        value = String(value);
      } else if (typeof value == "string" || typeof value == "number") {
        value = protoInt64.uParse(value);
      }
      break;
  }
  return value;
}
function wktStructToReflect(json) {
  const struct = {
    $typeName: "google.protobuf.Struct",
    fields: {}
  };
  if (isObject(json)) {
    for (const [k, v] of Object.entries(json)) {
      struct.fields[k] = wktValueToReflect(v);
    }
  }
  return struct;
}
function wktStructToLocal(val) {
  const json = {};
  for (const [k, v] of Object.entries(val.fields)) {
    json[k] = wktValueToLocal(v);
  }
  return json;
}
function wktValueToLocal(val) {
  switch (val.kind.case) {
    case "structValue":
      return wktStructToLocal(val.kind.value);
    case "listValue":
      return val.kind.value.values.map(wktValueToLocal);
    case "nullValue":
    case void 0:
      return null;
    default:
      return val.kind.value;
  }
}
function wktValueToReflect(json) {
  const value = {
    $typeName: "google.protobuf.Value",
    kind: { case: void 0 }
  };
  switch (typeof json) {
    case "number":
      value.kind = { case: "numberValue", value: json };
      break;
    case "string":
      value.kind = { case: "stringValue", value: json };
      break;
    case "boolean":
      value.kind = { case: "boolValue", value: json };
      break;
    case "object":
      if (json === null) {
        value.kind = { case: "nullValue", value: NULL_VALUE };
      } else if (Array.isArray(json)) {
        const listValue = {
          $typeName: "google.protobuf.ListValue",
          values: []
        };
        if (Array.isArray(json)) {
          for (const e of json) {
            listValue.values.push(wktValueToReflect(e));
          }
        }
        value.kind = {
          case: "listValue",
          value: listValue
        };
      } else {
        value.kind = {
          case: "structValue",
          value: wktStructToReflect(json)
        };
      }
      break;
  }
  return value;
}

// node_modules/@bufbuild/protobuf/dist/esm/wire/base64-encoding.js
function base64Decode(base64Str) {
  const table = getDecodeTable();
  let es = base64Str.length * 3 / 4;
  if (base64Str[base64Str.length - 2] == "=")
    es -= 2;
  else if (base64Str[base64Str.length - 1] == "=")
    es -= 1;
  let bytes = new Uint8Array(es), bytePos = 0, groupPos = 0, b, p = 0;
  for (let i = 0; i < base64Str.length; i++) {
    b = table[base64Str.charCodeAt(i)];
    if (b === void 0) {
      switch (base64Str[i]) {
        // @ts-ignore TS7029: Fallthrough case in switch -- ignore instead of expect-error for compiler settings without noFallthroughCasesInSwitch: true
        case "=":
          groupPos = 0;
        // reset state when padding found
        case "\n":
        case "\r":
        case "	":
        case " ":
          continue;
        // skip white-space, and padding
        default:
          throw Error("invalid base64 string");
      }
    }
    switch (groupPos) {
      case 0:
        p = b;
        groupPos = 1;
        break;
      case 1:
        bytes[bytePos++] = p << 2 | (b & 48) >> 4;
        p = b;
        groupPos = 2;
        break;
      case 2:
        bytes[bytePos++] = (p & 15) << 4 | (b & 60) >> 2;
        p = b;
        groupPos = 3;
        break;
      case 3:
        bytes[bytePos++] = (p & 3) << 6 | b;
        groupPos = 0;
        break;
    }
  }
  if (groupPos == 1)
    throw Error("invalid base64 string");
  return bytes.subarray(0, bytePos);
}
function base64Encode(bytes, encoding = "std") {
  const table = getEncodeTable(encoding);
  const pad = encoding == "std";
  let base64 = "", groupPos = 0, b, p = 0;
  for (let i = 0; i < bytes.length; i++) {
    b = bytes[i];
    switch (groupPos) {
      case 0:
        base64 += table[b >> 2];
        p = (b & 3) << 4;
        groupPos = 1;
        break;
      case 1:
        base64 += table[p | b >> 4];
        p = (b & 15) << 2;
        groupPos = 2;
        break;
      case 2:
        base64 += table[p | b >> 6];
        base64 += table[b & 63];
        groupPos = 0;
        break;
    }
  }
  if (groupPos) {
    base64 += table[p];
    if (pad) {
      base64 += "=";
      if (groupPos == 1)
        base64 += "=";
    }
  }
  return base64;
}
var encodeTableStd;
var encodeTableUrl;
var decodeTable;
function getEncodeTable(encoding) {
  if (!encodeTableStd) {
    encodeTableStd = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("");
    encodeTableUrl = encodeTableStd.slice(0, -2).concat("-", "_");
  }
  return encoding == "url" ? (
    // biome-ignore lint/style/noNonNullAssertion: TS fails to narrow down
    encodeTableUrl
  ) : encodeTableStd;
}
function getDecodeTable() {
  if (!decodeTable) {
    decodeTable = [];
    const encodeTable = getEncodeTable("std");
    for (let i = 0; i < encodeTable.length; i++)
      decodeTable[encodeTable[i].charCodeAt(0)] = i;
    decodeTable["-".charCodeAt(0)] = encodeTable.indexOf("+");
    decodeTable["_".charCodeAt(0)] = encodeTable.indexOf("/");
  }
  return decodeTable;
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/names.js
function protoCamelCase(snakeCase) {
  let capNext = false;
  const b = [];
  for (let i = 0; i < snakeCase.length; i++) {
    let c = snakeCase.charAt(i);
    switch (c) {
      case "_":
        capNext = true;
        break;
      case "0":
      case "1":
      case "2":
      case "3":
      case "4":
      case "5":
      case "6":
      case "7":
      case "8":
      case "9":
        b.push(c);
        capNext = false;
        break;
      default:
        if (capNext) {
          capNext = false;
          c = c.toUpperCase();
        }
        b.push(c);
        break;
    }
  }
  return b.join("");
}
function protoSnakeCase(lowerCamelCase) {
  return lowerCamelCase.replace(/[A-Z]/g, (letter) => "_" + letter.toLowerCase());
}
var reservedObjectProperties = /* @__PURE__ */ new Set([
  // names reserved by JavaScript
  "constructor",
  "toString",
  "toJSON",
  "valueOf"
]);
function safeObjectProperty(name) {
  return reservedObjectProperties.has(name) ? name + "$" : name;
}

// node_modules/@bufbuild/protobuf/dist/esm/codegenv2/restore-json-names.js
function restoreJsonNames(message) {
  for (const f of message.field) {
    if (!unsafeIsSetExplicit(f, "jsonName")) {
      f.jsonName = protoCamelCase(f.name);
    }
  }
  message.nestedType.forEach(restoreJsonNames);
}

// node_modules/@bufbuild/protobuf/dist/esm/wire/text-format.js
function parseTextFormatEnumValue(descEnum, value) {
  const enumValue = descEnum.values.find((v) => v.name === value);
  if (!enumValue) {
    throw new Error(`cannot parse ${descEnum} default value: ${value}`);
  }
  return enumValue.number;
}
function parseTextFormatScalarValue(type, value) {
  switch (type) {
    case ScalarType.STRING:
      return value;
    case ScalarType.BYTES: {
      const u = unescapeBytesDefaultValue(value);
      if (u === false) {
        throw new Error(`cannot parse ${ScalarType[type]} default value: ${value}`);
      }
      return u;
    }
    case ScalarType.INT64:
    case ScalarType.SFIXED64:
    case ScalarType.SINT64:
      return protoInt64.parse(value);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return protoInt64.uParse(value);
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      switch (value) {
        case "inf":
          return Number.POSITIVE_INFINITY;
        case "-inf":
          return Number.NEGATIVE_INFINITY;
        case "nan":
          return Number.NaN;
        default:
          return parseFloat(value);
      }
    case ScalarType.BOOL:
      return value === "true";
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return parseInt(value, 10);
  }
}
function unescapeBytesDefaultValue(str) {
  const b = [];
  const input = {
    tail: str,
    c: "",
    next() {
      if (this.tail.length == 0) {
        return false;
      }
      this.c = this.tail[0];
      this.tail = this.tail.substring(1);
      return true;
    },
    take(n) {
      if (this.tail.length >= n) {
        const r = this.tail.substring(0, n);
        this.tail = this.tail.substring(n);
        return r;
      }
      return false;
    }
  };
  while (input.next()) {
    switch (input.c) {
      case "\\":
        if (input.next()) {
          switch (input.c) {
            case "\\":
              b.push(input.c.charCodeAt(0));
              break;
            case "b":
              b.push(8);
              break;
            case "f":
              b.push(12);
              break;
            case "n":
              b.push(10);
              break;
            case "r":
              b.push(13);
              break;
            case "t":
              b.push(9);
              break;
            case "v":
              b.push(11);
              break;
            case "0":
            case "1":
            case "2":
            case "3":
            case "4":
            case "5":
            case "6":
            case "7": {
              const s = input.c;
              const t = input.take(2);
              if (t === false) {
                return false;
              }
              const n = parseInt(s + t, 8);
              if (Number.isNaN(n)) {
                return false;
              }
              b.push(n);
              break;
            }
            case "x": {
              const s = input.c;
              const t = input.take(2);
              if (t === false) {
                return false;
              }
              const n = parseInt(s + t, 16);
              if (Number.isNaN(n)) {
                return false;
              }
              b.push(n);
              break;
            }
            case "u": {
              const s = input.c;
              const t = input.take(4);
              if (t === false) {
                return false;
              }
              const n = parseInt(s + t, 16);
              if (Number.isNaN(n)) {
                return false;
              }
              const chunk = new Uint8Array(4);
              const view = new DataView(chunk.buffer);
              view.setInt32(0, n, true);
              b.push(chunk[0], chunk[1], chunk[2], chunk[3]);
              break;
            }
            case "U": {
              const s = input.c;
              const t = input.take(8);
              if (t === false) {
                return false;
              }
              const tc = protoInt64.uEnc(s + t);
              const chunk = new Uint8Array(8);
              const view = new DataView(chunk.buffer);
              view.setInt32(0, tc.lo, true);
              view.setInt32(4, tc.hi, true);
              b.push(chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7]);
              break;
            }
          }
        }
        break;
      default:
        b.push(input.c.charCodeAt(0));
    }
  }
  return new Uint8Array(b);
}

// node_modules/@bufbuild/protobuf/dist/esm/reflect/nested-types.js
function* nestedTypes(desc) {
  switch (desc.kind) {
    case "file":
      for (const message of desc.messages) {
        yield message;
        yield* nestedTypes(message);
      }
      yield* desc.enums;
      yield* desc.services;
      yield* desc.extensions;
      break;
    case "message":
      for (const message of desc.nestedMessages) {
        yield message;
        yield* nestedTypes(message);
      }
      yield* desc.nestedEnums;
      yield* desc.nestedExtensions;
      break;
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/registry.js
function createFileRegistry(...args) {
  const registry = createBaseRegistry();
  if (!args.length) {
    return registry;
  }
  if ("$typeName" in args[0] && args[0].$typeName == "google.protobuf.FileDescriptorSet") {
    for (const file of args[0].file) {
      addFile(file, registry);
    }
    return registry;
  }
  if ("$typeName" in args[0]) {
    let recurseDeps = function(file) {
      const deps = [];
      for (const protoFileName of file.dependency) {
        if (registry.getFile(protoFileName) != void 0) {
          continue;
        }
        if (seen.has(protoFileName)) {
          continue;
        }
        const dep = resolve(protoFileName);
        if (!dep) {
          throw new Error(`Unable to resolve ${protoFileName}, imported by ${file.name}`);
        }
        if ("kind" in dep) {
          registry.addFile(dep, false, true);
        } else {
          seen.add(dep.name);
          deps.push(dep);
        }
      }
      return deps.concat(...deps.map(recurseDeps));
    };
    const input = args[0];
    const resolve = args[1];
    const seen = /* @__PURE__ */ new Set();
    for (const file of [input, ...recurseDeps(input)].reverse()) {
      addFile(file, registry);
    }
  } else {
    for (const fileReg of args) {
      for (const file of fileReg.files) {
        registry.addFile(file);
      }
    }
  }
  return registry;
}
function createBaseRegistry() {
  const types = /* @__PURE__ */ new Map();
  const extendees = /* @__PURE__ */ new Map();
  const files = /* @__PURE__ */ new Map();
  return {
    kind: "registry",
    types,
    extendees,
    [Symbol.iterator]() {
      return types.values();
    },
    get files() {
      return files.values();
    },
    addFile(file, skipTypes, withDeps) {
      files.set(file.proto.name, file);
      if (!skipTypes) {
        for (const type of nestedTypes(file)) {
          this.add(type);
        }
      }
      if (withDeps) {
        for (const f of file.dependencies) {
          this.addFile(f, skipTypes, withDeps);
        }
      }
    },
    add(desc) {
      if (desc.kind == "extension") {
        let numberToExt = extendees.get(desc.extendee.typeName);
        if (!numberToExt) {
          extendees.set(
            desc.extendee.typeName,
            // biome-ignore lint/suspicious/noAssignInExpressions: no
            numberToExt = /* @__PURE__ */ new Map()
          );
        }
        numberToExt.set(desc.number, desc);
      }
      types.set(desc.typeName, desc);
    },
    get(typeName) {
      return types.get(typeName);
    },
    getFile(fileName) {
      return files.get(fileName);
    },
    getMessage(typeName) {
      const t = types.get(typeName);
      return (t === null || t === void 0 ? void 0 : t.kind) == "message" ? t : void 0;
    },
    getEnum(typeName) {
      const t = types.get(typeName);
      return (t === null || t === void 0 ? void 0 : t.kind) == "enum" ? t : void 0;
    },
    getExtension(typeName) {
      const t = types.get(typeName);
      return (t === null || t === void 0 ? void 0 : t.kind) == "extension" ? t : void 0;
    },
    getExtensionFor(extendee, no) {
      var _a;
      return (_a = extendees.get(extendee.typeName)) === null || _a === void 0 ? void 0 : _a.get(no);
    },
    getService(typeName) {
      const t = types.get(typeName);
      return (t === null || t === void 0 ? void 0 : t.kind) == "service" ? t : void 0;
    }
  };
}
var EDITION_PROTO22 = 998;
var EDITION_PROTO32 = 999;
var EDITION_UNSTABLE = 9999;
var TYPE_STRING = 9;
var TYPE_GROUP = 10;
var TYPE_MESSAGE = 11;
var TYPE_BYTES = 12;
var TYPE_ENUM = 14;
var LABEL_REPEATED = 3;
var LABEL_REQUIRED = 2;
var JS_STRING = 1;
var IDEMPOTENCY_UNKNOWN = 0;
var EXPLICIT = 1;
var IMPLICIT3 = 2;
var LEGACY_REQUIRED = 3;
var PACKED = 1;
var DELIMITED = 2;
var OPEN = 1;
var VERIFY = 2;
var maximumEdition = 1001;
var featureDefaults = {
  // EDITION_PROTO2
  998: {
    fieldPresence: 1,
    // EXPLICIT,
    enumType: 2,
    // CLOSED,
    repeatedFieldEncoding: 2,
    // EXPANDED,
    utf8Validation: 3,
    // NONE,
    messageEncoding: 1,
    // LENGTH_PREFIXED,
    jsonFormat: 2,
    // LEGACY_BEST_EFFORT,
    enforceNamingStyle: 2,
    // STYLE_LEGACY,
    defaultSymbolVisibility: 1
    // EXPORT_ALL,
  },
  // EDITION_PROTO3
  999: {
    fieldPresence: 2,
    // IMPLICIT,
    enumType: 1,
    // OPEN,
    repeatedFieldEncoding: 1,
    // PACKED,
    utf8Validation: 2,
    // VERIFY,
    messageEncoding: 1,
    // LENGTH_PREFIXED,
    jsonFormat: 1,
    // ALLOW,
    enforceNamingStyle: 2,
    // STYLE_LEGACY,
    defaultSymbolVisibility: 1
    // EXPORT_ALL,
  },
  // EDITION_2023
  1e3: {
    fieldPresence: 1,
    // EXPLICIT,
    enumType: 1,
    // OPEN,
    repeatedFieldEncoding: 1,
    // PACKED,
    utf8Validation: 2,
    // VERIFY,
    messageEncoding: 1,
    // LENGTH_PREFIXED,
    jsonFormat: 1,
    // ALLOW,
    enforceNamingStyle: 2,
    // STYLE_LEGACY,
    defaultSymbolVisibility: 1
    // EXPORT_ALL,
  },
  // EDITION_2024
  1001: {
    fieldPresence: 1,
    // EXPLICIT,
    enumType: 1,
    // OPEN,
    repeatedFieldEncoding: 1,
    // PACKED,
    utf8Validation: 2,
    // VERIFY,
    messageEncoding: 1,
    // LENGTH_PREFIXED,
    jsonFormat: 1,
    // ALLOW,
    enforceNamingStyle: 1,
    // STYLE2024,
    defaultSymbolVisibility: 2
    // EXPORT_TOP_LEVEL,
  }
};
function addFile(proto, reg) {
  var _a, _b;
  const file = {
    kind: "file",
    proto,
    deprecated: (_b = (_a = proto.options) === null || _a === void 0 ? void 0 : _a.deprecated) !== null && _b !== void 0 ? _b : false,
    edition: getFileEdition(proto),
    name: proto.name.replace(/\.proto$/, ""),
    dependencies: findFileDependencies(proto, reg),
    enums: [],
    messages: [],
    extensions: [],
    services: [],
    toString() {
      return `file ${proto.name}`;
    }
  };
  const mapEntriesStore = /* @__PURE__ */ new Map();
  const mapEntries = {
    get(typeName) {
      return mapEntriesStore.get(typeName);
    },
    add(desc) {
      var _a2;
      assert(((_a2 = desc.proto.options) === null || _a2 === void 0 ? void 0 : _a2.mapEntry) === true);
      mapEntriesStore.set(desc.typeName, desc);
    }
  };
  for (const enumProto of proto.enumType) {
    addEnum(enumProto, file, void 0, reg);
  }
  for (const messageProto of proto.messageType) {
    addMessage(messageProto, file, void 0, reg, mapEntries);
  }
  for (const serviceProto of proto.service) {
    addService(serviceProto, file, reg);
  }
  addExtensions(file, reg);
  for (const mapEntry of mapEntriesStore.values()) {
    addFields(mapEntry, reg, mapEntries);
  }
  for (const message of file.messages) {
    addFields(message, reg, mapEntries);
    addExtensions(message, reg);
  }
  reg.addFile(file, true);
}
function addExtensions(desc, reg) {
  switch (desc.kind) {
    case "file":
      for (const proto of desc.proto.extension) {
        const ext = newField(proto, desc, reg);
        desc.extensions.push(ext);
        reg.add(ext);
      }
      break;
    case "message":
      for (const proto of desc.proto.extension) {
        const ext = newField(proto, desc, reg);
        desc.nestedExtensions.push(ext);
        reg.add(ext);
      }
      for (const message of desc.nestedMessages) {
        addExtensions(message, reg);
      }
      break;
  }
}
function addFields(message, reg, mapEntries) {
  const allOneofs = message.proto.oneofDecl.map((proto) => newOneof(proto, message));
  const oneofsSeen = /* @__PURE__ */ new Set();
  for (const proto of message.proto.field) {
    const oneof = findOneof(proto, allOneofs);
    const field = newField(proto, message, reg, oneof, mapEntries);
    message.fields.push(field);
    message.field[field.localName] = field;
    if (oneof === void 0) {
      message.members.push(field);
    } else {
      oneof.fields.push(field);
      if (!oneofsSeen.has(oneof)) {
        oneofsSeen.add(oneof);
        message.members.push(oneof);
      }
    }
  }
  for (const oneof of allOneofs.filter((o) => oneofsSeen.has(o))) {
    message.oneofs.push(oneof);
  }
  for (const child of message.nestedMessages) {
    addFields(child, reg, mapEntries);
  }
}
function addEnum(proto, file, parent, reg) {
  var _a, _b, _c, _d, _e;
  const sharedPrefix = findEnumSharedPrefix(proto.name, proto.value);
  const desc = {
    kind: "enum",
    proto,
    deprecated: (_b = (_a = proto.options) === null || _a === void 0 ? void 0 : _a.deprecated) !== null && _b !== void 0 ? _b : false,
    file,
    parent,
    open: true,
    name: proto.name,
    typeName: makeTypeName(proto, parent, file),
    value: {},
    values: [],
    sharedPrefix,
    toString() {
      return `enum ${this.typeName}`;
    }
  };
  desc.open = isEnumOpen(desc);
  reg.add(desc);
  for (const p of proto.value) {
    const name = p.name;
    desc.values.push(
      // biome-ignore lint/suspicious/noAssignInExpressions: no
      desc.value[p.number] = {
        kind: "enum_value",
        proto: p,
        deprecated: (_d = (_c = p.options) === null || _c === void 0 ? void 0 : _c.deprecated) !== null && _d !== void 0 ? _d : false,
        parent: desc,
        name,
        localName: safeObjectProperty(sharedPrefix == void 0 ? name : name.substring(sharedPrefix.length)),
        number: p.number,
        toString() {
          return `enum value ${desc.typeName}.${name}`;
        }
      }
    );
  }
  ((_e = parent === null || parent === void 0 ? void 0 : parent.nestedEnums) !== null && _e !== void 0 ? _e : file.enums).push(desc);
}
function addMessage(proto, file, parent, reg, mapEntries) {
  var _a, _b, _c, _d;
  const desc = {
    kind: "message",
    proto,
    deprecated: (_b = (_a = proto.options) === null || _a === void 0 ? void 0 : _a.deprecated) !== null && _b !== void 0 ? _b : false,
    file,
    parent,
    name: proto.name,
    typeName: makeTypeName(proto, parent, file),
    fields: [],
    field: {},
    oneofs: [],
    members: [],
    nestedEnums: [],
    nestedMessages: [],
    nestedExtensions: [],
    toString() {
      return `message ${this.typeName}`;
    }
  };
  if (((_c = proto.options) === null || _c === void 0 ? void 0 : _c.mapEntry) === true) {
    mapEntries.add(desc);
  } else {
    ((_d = parent === null || parent === void 0 ? void 0 : parent.nestedMessages) !== null && _d !== void 0 ? _d : file.messages).push(desc);
    reg.add(desc);
  }
  for (const enumProto of proto.enumType) {
    addEnum(enumProto, file, desc, reg);
  }
  for (const messageProto of proto.nestedType) {
    addMessage(messageProto, file, desc, reg, mapEntries);
  }
}
function addService(proto, file, reg) {
  var _a, _b;
  const desc = {
    kind: "service",
    proto,
    deprecated: (_b = (_a = proto.options) === null || _a === void 0 ? void 0 : _a.deprecated) !== null && _b !== void 0 ? _b : false,
    file,
    name: proto.name,
    typeName: makeTypeName(proto, void 0, file),
    methods: [],
    method: {},
    toString() {
      return `service ${this.typeName}`;
    }
  };
  file.services.push(desc);
  reg.add(desc);
  for (const methodProto of proto.method) {
    const method = newMethod(methodProto, desc, reg);
    desc.methods.push(method);
    desc.method[method.localName] = method;
  }
}
function newMethod(proto, parent, reg) {
  var _a, _b, _c, _d;
  let methodKind;
  if (proto.clientStreaming && proto.serverStreaming) {
    methodKind = "bidi_streaming";
  } else if (proto.clientStreaming) {
    methodKind = "client_streaming";
  } else if (proto.serverStreaming) {
    methodKind = "server_streaming";
  } else {
    methodKind = "unary";
  }
  const input = reg.getMessage(trimLeadingDot(proto.inputType));
  const output = reg.getMessage(trimLeadingDot(proto.outputType));
  assert(input, `invalid MethodDescriptorProto: input_type ${proto.inputType} not found`);
  assert(output, `invalid MethodDescriptorProto: output_type ${proto.inputType} not found`);
  const name = proto.name;
  return {
    kind: "rpc",
    proto,
    deprecated: (_b = (_a = proto.options) === null || _a === void 0 ? void 0 : _a.deprecated) !== null && _b !== void 0 ? _b : false,
    parent,
    name,
    localName: safeObjectProperty(name.length ? safeObjectProperty(name[0].toLowerCase() + name.substring(1)) : name),
    methodKind,
    input,
    output,
    idempotency: (_d = (_c = proto.options) === null || _c === void 0 ? void 0 : _c.idempotencyLevel) !== null && _d !== void 0 ? _d : IDEMPOTENCY_UNKNOWN,
    toString() {
      return `rpc ${parent.typeName}.${name}`;
    }
  };
}
function newOneof(proto, parent) {
  return {
    kind: "oneof",
    proto,
    deprecated: false,
    parent,
    fields: [],
    name: proto.name,
    localName: safeObjectProperty(protoCamelCase(proto.name)),
    toString() {
      return `oneof ${parent.typeName}.${this.name}`;
    }
  };
}
function newField(proto, parentOrFile, reg, oneof, mapEntries) {
  var _a, _b, _c;
  const isExtension = mapEntries === void 0;
  const field = {
    kind: "field",
    proto,
    deprecated: (_b = (_a = proto.options) === null || _a === void 0 ? void 0 : _a.deprecated) !== null && _b !== void 0 ? _b : false,
    name: proto.name,
    number: proto.number,
    scalar: void 0,
    message: void 0,
    enum: void 0,
    presence: getFieldPresence(proto, oneof, isExtension, parentOrFile),
    utf8Validation: isUtf8Validated(proto, parentOrFile),
    listKind: void 0,
    mapKind: void 0,
    mapKey: void 0,
    delimitedEncoding: void 0,
    packed: void 0,
    longAsString: false,
    getDefaultValue: void 0
  };
  if (isExtension) {
    const file = parentOrFile.kind == "file" ? parentOrFile : parentOrFile.file;
    const parent = parentOrFile.kind == "file" ? void 0 : parentOrFile;
    const typeName = makeTypeName(proto, parent, file);
    field.kind = "extension";
    field.file = file;
    field.parent = parent;
    field.oneof = void 0;
    field.typeName = typeName;
    field.jsonName = `[${typeName}]`;
    field.toString = () => `extension ${typeName}`;
    const extendee = reg.getMessage(trimLeadingDot(proto.extendee));
    assert(extendee, `invalid FieldDescriptorProto: extendee ${proto.extendee} not found`);
    field.extendee = extendee;
  } else {
    const parent = parentOrFile;
    assert(parent.kind == "message");
    field.parent = parent;
    field.oneof = oneof;
    field.localName = oneof ? protoCamelCase(proto.name) : safeObjectProperty(protoCamelCase(proto.name));
    field.jsonName = proto.jsonName;
    field.toString = () => `field ${parent.typeName}.${proto.name}`;
  }
  const label = proto.label;
  const type = proto.type;
  const jstype = (_c = proto.options) === null || _c === void 0 ? void 0 : _c.jstype;
  if (label === LABEL_REPEATED) {
    const mapEntry = type == TYPE_MESSAGE ? mapEntries === null || mapEntries === void 0 ? void 0 : mapEntries.get(trimLeadingDot(proto.typeName)) : void 0;
    if (mapEntry) {
      field.fieldKind = "map";
      const { key, value } = findMapEntryFields(mapEntry);
      field.mapKey = key.scalar;
      field.mapKind = value.fieldKind;
      field.message = value.message;
      field.delimitedEncoding = false;
      field.enum = value.enum;
      field.scalar = value.scalar;
      return field;
    }
    field.fieldKind = "list";
    switch (type) {
      case TYPE_MESSAGE:
      case TYPE_GROUP:
        field.listKind = "message";
        field.message = reg.getMessage(trimLeadingDot(proto.typeName));
        assert(field.message);
        field.delimitedEncoding = isDelimitedEncoding(proto, parentOrFile);
        break;
      case TYPE_ENUM:
        field.listKind = "enum";
        field.enum = reg.getEnum(trimLeadingDot(proto.typeName));
        assert(field.enum);
        break;
      default:
        field.listKind = "scalar";
        field.scalar = type;
        field.longAsString = jstype == JS_STRING;
        break;
    }
    field.packed = isPackedField(proto, parentOrFile);
    return field;
  }
  switch (type) {
    case TYPE_MESSAGE:
    case TYPE_GROUP:
      field.fieldKind = "message";
      field.message = reg.getMessage(trimLeadingDot(proto.typeName));
      assert(field.message, `invalid FieldDescriptorProto: type_name ${proto.typeName} not found`);
      field.delimitedEncoding = isDelimitedEncoding(proto, parentOrFile);
      field.getDefaultValue = () => void 0;
      break;
    case TYPE_ENUM: {
      const enumeration = reg.getEnum(trimLeadingDot(proto.typeName));
      assert(enumeration !== void 0, `invalid FieldDescriptorProto: type_name ${proto.typeName} not found`);
      field.fieldKind = "enum";
      field.enum = reg.getEnum(trimLeadingDot(proto.typeName));
      field.getDefaultValue = () => {
        return unsafeIsSetExplicit(proto, "defaultValue") ? parseTextFormatEnumValue(enumeration, proto.defaultValue) : void 0;
      };
      break;
    }
    default: {
      field.fieldKind = "scalar";
      field.scalar = type;
      field.longAsString = jstype == JS_STRING;
      field.getDefaultValue = () => {
        return unsafeIsSetExplicit(proto, "defaultValue") ? parseTextFormatScalarValue(type, proto.defaultValue) : void 0;
      };
      break;
    }
  }
  return field;
}
function getFileEdition(proto) {
  switch (proto.syntax) {
    case "":
    case "proto2":
      return EDITION_PROTO22;
    case "proto3":
      return EDITION_PROTO32;
    case "editions":
      if (proto.edition === EDITION_UNSTABLE) {
        return maximumEdition;
      }
      if (proto.edition in featureDefaults) {
        return proto.edition;
      }
      throw new Error(`${proto.name}: unsupported edition`);
    default:
      throw new Error(`${proto.name}: unsupported syntax "${proto.syntax}"`);
  }
}
function findFileDependencies(proto, reg) {
  return proto.dependency.map((wantName) => {
    const dep = reg.getFile(wantName);
    if (!dep) {
      throw new Error(`Cannot find ${wantName}, imported by ${proto.name}`);
    }
    return dep;
  });
}
function findEnumSharedPrefix(enumName, values) {
  const prefix = camelToSnakeCase(enumName) + "_";
  for (const value of values) {
    if (!value.name.toLowerCase().startsWith(prefix)) {
      return void 0;
    }
    const shortName = value.name.substring(prefix.length);
    if (shortName.length == 0) {
      return void 0;
    }
    if (/^\d/.test(shortName)) {
      return void 0;
    }
  }
  return prefix;
}
function camelToSnakeCase(camel) {
  return (camel.substring(0, 1) + camel.substring(1).replace(/[A-Z]/g, (c) => "_" + c)).toLowerCase();
}
function makeTypeName(proto, parent, file) {
  let typeName;
  if (parent) {
    typeName = `${parent.typeName}.${proto.name}`;
  } else if (file.proto.package.length > 0) {
    typeName = `${file.proto.package}.${proto.name}`;
  } else {
    typeName = `${proto.name}`;
  }
  return typeName;
}
function trimLeadingDot(typeName) {
  return typeName.startsWith(".") ? typeName.substring(1) : typeName;
}
function findOneof(proto, allOneofs) {
  if (!unsafeIsSetExplicit(proto, "oneofIndex")) {
    return void 0;
  }
  if (proto.proto3Optional) {
    return void 0;
  }
  const oneof = allOneofs[proto.oneofIndex];
  assert(oneof, `invalid FieldDescriptorProto: oneof #${proto.oneofIndex} for field #${proto.number} not found`);
  return oneof;
}
function getFieldPresence(proto, oneof, isExtension, parent) {
  if (proto.label == LABEL_REQUIRED) {
    return LEGACY_REQUIRED;
  }
  if (proto.label == LABEL_REPEATED) {
    return IMPLICIT3;
  }
  if (!!oneof || proto.proto3Optional) {
    return EXPLICIT;
  }
  if (isExtension) {
    return EXPLICIT;
  }
  const resolved = resolveFeature("fieldPresence", { proto, parent });
  if (resolved == IMPLICIT3 && (proto.type == TYPE_MESSAGE || proto.type == TYPE_GROUP)) {
    return EXPLICIT;
  }
  return resolved;
}
function isPackedField(proto, parent) {
  if (proto.label != LABEL_REPEATED) {
    return false;
  }
  switch (proto.type) {
    case TYPE_STRING:
    case TYPE_BYTES:
    case TYPE_GROUP:
    case TYPE_MESSAGE:
      return false;
  }
  const o = proto.options;
  if (o && unsafeIsSetExplicit(o, "packed")) {
    return o.packed;
  }
  return PACKED == resolveFeature("repeatedFieldEncoding", {
    proto,
    parent
  });
}
function findMapEntryFields(mapEntry) {
  const key = mapEntry.fields.find((f) => f.number === 1);
  const value = mapEntry.fields.find((f) => f.number === 2);
  assert(key && key.fieldKind == "scalar" && key.scalar != ScalarType.BYTES && key.scalar != ScalarType.FLOAT && key.scalar != ScalarType.DOUBLE && value && value.fieldKind != "list" && value.fieldKind != "map");
  return { key, value };
}
function isEnumOpen(desc) {
  var _a;
  return OPEN == resolveFeature("enumType", {
    proto: desc.proto,
    parent: (_a = desc.parent) !== null && _a !== void 0 ? _a : desc.file
  });
}
function isDelimitedEncoding(proto, parent) {
  if (proto.type == TYPE_GROUP) {
    return true;
  }
  return DELIMITED == resolveFeature("messageEncoding", {
    proto,
    parent
  });
}
function isUtf8Validated(proto, parent) {
  return VERIFY == resolveFeature("utf8Validation", {
    proto,
    parent
  });
}
function resolveFeature(name, ref) {
  var _a, _b;
  const featureSet = (_a = ref.proto.options) === null || _a === void 0 ? void 0 : _a.features;
  if (featureSet) {
    const val = featureSet[name];
    if (val != 0) {
      return val;
    }
  }
  if ("kind" in ref) {
    if (ref.kind == "message") {
      return resolveFeature(name, (_b = ref.parent) !== null && _b !== void 0 ? _b : ref.file);
    }
    const editionDefaults = featureDefaults[ref.edition];
    if (!editionDefaults) {
      throw new Error(`feature default for edition ${ref.edition} not found`);
    }
    return editionDefaults[name];
  }
  return resolveFeature(name, ref.parent);
}
function assert(condition, msg) {
  if (!condition) {
    throw new Error(msg);
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/codegenv2/boot.js
function boot(boot2) {
  const root = bootFileDescriptorProto(boot2);
  root.messageType.forEach(restoreJsonNames);
  const reg = createFileRegistry(root, () => void 0);
  return reg.getFile(root.name);
}
function bootFileDescriptorProto(init) {
  const proto = /* @__PURE__ */ Object.create({
    syntax: "",
    edition: 0
  });
  return Object.assign(proto, Object.assign(Object.assign({ $typeName: "google.protobuf.FileDescriptorProto", dependency: [], publicDependency: [], weakDependency: [], optionDependency: [], service: [], extension: [] }, init), { messageType: init.messageType.map(bootDescriptorProto), enumType: init.enumType.map(bootEnumDescriptorProto) }));
}
function bootDescriptorProto(init) {
  var _a, _b, _c, _d, _e, _f, _g, _h;
  const proto = /* @__PURE__ */ Object.create({
    visibility: 0
  });
  return Object.assign(proto, {
    $typeName: "google.protobuf.DescriptorProto",
    name: init.name,
    field: (_b = (_a = init.field) === null || _a === void 0 ? void 0 : _a.map(bootFieldDescriptorProto)) !== null && _b !== void 0 ? _b : [],
    extension: [],
    nestedType: (_d = (_c = init.nestedType) === null || _c === void 0 ? void 0 : _c.map(bootDescriptorProto)) !== null && _d !== void 0 ? _d : [],
    enumType: (_f = (_e = init.enumType) === null || _e === void 0 ? void 0 : _e.map(bootEnumDescriptorProto)) !== null && _f !== void 0 ? _f : [],
    extensionRange: (_h = (_g = init.extensionRange) === null || _g === void 0 ? void 0 : _g.map((e) => Object.assign({ $typeName: "google.protobuf.DescriptorProto.ExtensionRange" }, e))) !== null && _h !== void 0 ? _h : [],
    oneofDecl: [],
    reservedRange: [],
    reservedName: []
  });
}
function bootFieldDescriptorProto(init) {
  const proto = /* @__PURE__ */ Object.create({
    label: 1,
    typeName: "",
    extendee: "",
    defaultValue: "",
    oneofIndex: 0,
    jsonName: "",
    proto3Optional: false
  });
  return Object.assign(proto, Object.assign(Object.assign({ $typeName: "google.protobuf.FieldDescriptorProto" }, init), { options: init.options ? bootFieldOptions(init.options) : void 0 }));
}
function bootFieldOptions(init) {
  var _a, _b, _c;
  const proto = /* @__PURE__ */ Object.create({
    ctype: 0,
    packed: false,
    jstype: 0,
    lazy: false,
    unverifiedLazy: false,
    deprecated: false,
    weak: false,
    debugRedact: false,
    retention: 0
  });
  return Object.assign(proto, Object.assign(Object.assign({ $typeName: "google.protobuf.FieldOptions" }, init), { targets: (_a = init.targets) !== null && _a !== void 0 ? _a : [], editionDefaults: (_c = (_b = init.editionDefaults) === null || _b === void 0 ? void 0 : _b.map((e) => Object.assign({ $typeName: "google.protobuf.FieldOptions.EditionDefault" }, e))) !== null && _c !== void 0 ? _c : [], uninterpretedOption: [] }));
}
function bootEnumDescriptorProto(init) {
  const proto = /* @__PURE__ */ Object.create({
    visibility: 0
  });
  return Object.assign(proto, {
    $typeName: "google.protobuf.EnumDescriptorProto",
    name: init.name,
    reservedName: [],
    reservedRange: [],
    value: init.value.map((e) => Object.assign({ $typeName: "google.protobuf.EnumValueDescriptorProto" }, e))
  });
}

// node_modules/@bufbuild/protobuf/dist/esm/codegenv2/message.js
function messageDesc(file, path, ...paths) {
  return paths.reduce((acc, cur) => acc.nestedMessages[cur], file.messages[path]);
}

// node_modules/@bufbuild/protobuf/dist/esm/codegenv2/enum.js
function enumDesc(file, path, ...paths) {
  if (paths.length == 0) {
    return file.enums[path];
  }
  const e = paths.pop();
  return paths.reduce((acc, cur) => acc.nestedMessages[cur], file.messages[path]).nestedEnums[e];
}

// node_modules/@bufbuild/protobuf/dist/esm/wkt/gen/google/protobuf/descriptor_pb.js
var file_google_protobuf_descriptor = /* @__PURE__ */ boot({ "name": "google/protobuf/descriptor.proto", "package": "google.protobuf", "messageType": [{ "name": "FileDescriptorSet", "field": [{ "name": "file", "number": 1, "type": 11, "label": 3, "typeName": ".google.protobuf.FileDescriptorProto" }], "extensionRange": [{ "start": 536e6, "end": 536000001 }] }, { "name": "FileDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "package", "number": 2, "type": 9, "label": 1 }, { "name": "dependency", "number": 3, "type": 9, "label": 3 }, { "name": "public_dependency", "number": 10, "type": 5, "label": 3 }, { "name": "weak_dependency", "number": 11, "type": 5, "label": 3 }, { "name": "option_dependency", "number": 15, "type": 9, "label": 3 }, { "name": "message_type", "number": 4, "type": 11, "label": 3, "typeName": ".google.protobuf.DescriptorProto" }, { "name": "enum_type", "number": 5, "type": 11, "label": 3, "typeName": ".google.protobuf.EnumDescriptorProto" }, { "name": "service", "number": 6, "type": 11, "label": 3, "typeName": ".google.protobuf.ServiceDescriptorProto" }, { "name": "extension", "number": 7, "type": 11, "label": 3, "typeName": ".google.protobuf.FieldDescriptorProto" }, { "name": "options", "number": 8, "type": 11, "label": 1, "typeName": ".google.protobuf.FileOptions" }, { "name": "source_code_info", "number": 9, "type": 11, "label": 1, "typeName": ".google.protobuf.SourceCodeInfo" }, { "name": "syntax", "number": 12, "type": 9, "label": 1 }, { "name": "edition", "number": 14, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }] }, { "name": "DescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "field", "number": 2, "type": 11, "label": 3, "typeName": ".google.protobuf.FieldDescriptorProto" }, { "name": "extension", "number": 6, "type": 11, "label": 3, "typeName": ".google.protobuf.FieldDescriptorProto" }, { "name": "nested_type", "number": 3, "type": 11, "label": 3, "typeName": ".google.protobuf.DescriptorProto" }, { "name": "enum_type", "number": 4, "type": 11, "label": 3, "typeName": ".google.protobuf.EnumDescriptorProto" }, { "name": "extension_range", "number": 5, "type": 11, "label": 3, "typeName": ".google.protobuf.DescriptorProto.ExtensionRange" }, { "name": "oneof_decl", "number": 8, "type": 11, "label": 3, "typeName": ".google.protobuf.OneofDescriptorProto" }, { "name": "options", "number": 7, "type": 11, "label": 1, "typeName": ".google.protobuf.MessageOptions" }, { "name": "reserved_range", "number": 9, "type": 11, "label": 3, "typeName": ".google.protobuf.DescriptorProto.ReservedRange" }, { "name": "reserved_name", "number": 10, "type": 9, "label": 3 }, { "name": "visibility", "number": 11, "type": 14, "label": 1, "typeName": ".google.protobuf.SymbolVisibility" }], "nestedType": [{ "name": "ExtensionRange", "field": [{ "name": "start", "number": 1, "type": 5, "label": 1 }, { "name": "end", "number": 2, "type": 5, "label": 1 }, { "name": "options", "number": 3, "type": 11, "label": 1, "typeName": ".google.protobuf.ExtensionRangeOptions" }] }, { "name": "ReservedRange", "field": [{ "name": "start", "number": 1, "type": 5, "label": 1 }, { "name": "end", "number": 2, "type": 5, "label": 1 }] }] }, { "name": "ExtensionRangeOptions", "field": [{ "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }, { "name": "declaration", "number": 2, "type": 11, "label": 3, "typeName": ".google.protobuf.ExtensionRangeOptions.Declaration", "options": { "retention": 2 } }, { "name": "features", "number": 50, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "verification", "number": 3, "type": 14, "label": 1, "typeName": ".google.protobuf.ExtensionRangeOptions.VerificationState", "defaultValue": "UNVERIFIED", "options": { "retention": 2 } }], "nestedType": [{ "name": "Declaration", "field": [{ "name": "number", "number": 1, "type": 5, "label": 1 }, { "name": "full_name", "number": 2, "type": 9, "label": 1 }, { "name": "type", "number": 3, "type": 9, "label": 1 }, { "name": "reserved", "number": 5, "type": 8, "label": 1 }, { "name": "repeated", "number": 6, "type": 8, "label": 1 }] }], "enumType": [{ "name": "VerificationState", "value": [{ "name": "DECLARATION", "number": 0 }, { "name": "UNVERIFIED", "number": 1 }] }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "FieldDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "number", "number": 3, "type": 5, "label": 1 }, { "name": "label", "number": 4, "type": 14, "label": 1, "typeName": ".google.protobuf.FieldDescriptorProto.Label" }, { "name": "type", "number": 5, "type": 14, "label": 1, "typeName": ".google.protobuf.FieldDescriptorProto.Type" }, { "name": "type_name", "number": 6, "type": 9, "label": 1 }, { "name": "extendee", "number": 2, "type": 9, "label": 1 }, { "name": "default_value", "number": 7, "type": 9, "label": 1 }, { "name": "oneof_index", "number": 9, "type": 5, "label": 1 }, { "name": "json_name", "number": 10, "type": 9, "label": 1 }, { "name": "options", "number": 8, "type": 11, "label": 1, "typeName": ".google.protobuf.FieldOptions" }, { "name": "proto3_optional", "number": 17, "type": 8, "label": 1 }], "enumType": [{ "name": "Type", "value": [{ "name": "TYPE_DOUBLE", "number": 1 }, { "name": "TYPE_FLOAT", "number": 2 }, { "name": "TYPE_INT64", "number": 3 }, { "name": "TYPE_UINT64", "number": 4 }, { "name": "TYPE_INT32", "number": 5 }, { "name": "TYPE_FIXED64", "number": 6 }, { "name": "TYPE_FIXED32", "number": 7 }, { "name": "TYPE_BOOL", "number": 8 }, { "name": "TYPE_STRING", "number": 9 }, { "name": "TYPE_GROUP", "number": 10 }, { "name": "TYPE_MESSAGE", "number": 11 }, { "name": "TYPE_BYTES", "number": 12 }, { "name": "TYPE_UINT32", "number": 13 }, { "name": "TYPE_ENUM", "number": 14 }, { "name": "TYPE_SFIXED32", "number": 15 }, { "name": "TYPE_SFIXED64", "number": 16 }, { "name": "TYPE_SINT32", "number": 17 }, { "name": "TYPE_SINT64", "number": 18 }] }, { "name": "Label", "value": [{ "name": "LABEL_OPTIONAL", "number": 1 }, { "name": "LABEL_REPEATED", "number": 3 }, { "name": "LABEL_REQUIRED", "number": 2 }] }] }, { "name": "OneofDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "options", "number": 2, "type": 11, "label": 1, "typeName": ".google.protobuf.OneofOptions" }] }, { "name": "EnumDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "value", "number": 2, "type": 11, "label": 3, "typeName": ".google.protobuf.EnumValueDescriptorProto" }, { "name": "options", "number": 3, "type": 11, "label": 1, "typeName": ".google.protobuf.EnumOptions" }, { "name": "reserved_range", "number": 4, "type": 11, "label": 3, "typeName": ".google.protobuf.EnumDescriptorProto.EnumReservedRange" }, { "name": "reserved_name", "number": 5, "type": 9, "label": 3 }, { "name": "visibility", "number": 6, "type": 14, "label": 1, "typeName": ".google.protobuf.SymbolVisibility" }], "nestedType": [{ "name": "EnumReservedRange", "field": [{ "name": "start", "number": 1, "type": 5, "label": 1 }, { "name": "end", "number": 2, "type": 5, "label": 1 }] }] }, { "name": "EnumValueDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "number", "number": 2, "type": 5, "label": 1 }, { "name": "options", "number": 3, "type": 11, "label": 1, "typeName": ".google.protobuf.EnumValueOptions" }] }, { "name": "ServiceDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "method", "number": 2, "type": 11, "label": 3, "typeName": ".google.protobuf.MethodDescriptorProto" }, { "name": "options", "number": 3, "type": 11, "label": 1, "typeName": ".google.protobuf.ServiceOptions" }] }, { "name": "MethodDescriptorProto", "field": [{ "name": "name", "number": 1, "type": 9, "label": 1 }, { "name": "input_type", "number": 2, "type": 9, "label": 1 }, { "name": "output_type", "number": 3, "type": 9, "label": 1 }, { "name": "options", "number": 4, "type": 11, "label": 1, "typeName": ".google.protobuf.MethodOptions" }, { "name": "client_streaming", "number": 5, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "server_streaming", "number": 6, "type": 8, "label": 1, "defaultValue": "false" }] }, { "name": "FileOptions", "field": [{ "name": "java_package", "number": 1, "type": 9, "label": 1 }, { "name": "java_outer_classname", "number": 8, "type": 9, "label": 1 }, { "name": "java_multiple_files", "number": 10, "type": 8, "label": 1, "defaultValue": "false", "options": {} }, { "name": "java_generate_equals_and_hash", "number": 20, "type": 8, "label": 1, "options": { "deprecated": true } }, { "name": "java_string_check_utf8", "number": 27, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "optimize_for", "number": 9, "type": 14, "label": 1, "typeName": ".google.protobuf.FileOptions.OptimizeMode", "defaultValue": "SPEED" }, { "name": "go_package", "number": 11, "type": 9, "label": 1 }, { "name": "cc_generic_services", "number": 16, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "java_generic_services", "number": 17, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "py_generic_services", "number": 18, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "deprecated", "number": 23, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "cc_enable_arenas", "number": 31, "type": 8, "label": 1, "defaultValue": "true" }, { "name": "objc_class_prefix", "number": 36, "type": 9, "label": 1 }, { "name": "csharp_namespace", "number": 37, "type": 9, "label": 1 }, { "name": "swift_prefix", "number": 39, "type": 9, "label": 1 }, { "name": "php_class_prefix", "number": 40, "type": 9, "label": 1 }, { "name": "php_namespace", "number": 41, "type": 9, "label": 1 }, { "name": "php_metadata_namespace", "number": 44, "type": 9, "label": 1 }, { "name": "ruby_package", "number": 45, "type": 9, "label": 1 }, { "name": "features", "number": 50, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "enumType": [{ "name": "OptimizeMode", "value": [{ "name": "SPEED", "number": 1 }, { "name": "CODE_SIZE", "number": 2 }, { "name": "LITE_RUNTIME", "number": 3 }] }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "MessageOptions", "field": [{ "name": "message_set_wire_format", "number": 1, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "no_standard_descriptor_accessor", "number": 2, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "deprecated", "number": 3, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "map_entry", "number": 7, "type": 8, "label": 1 }, { "name": "deprecated_legacy_json_field_conflicts", "number": 11, "type": 8, "label": 1, "options": { "deprecated": true } }, { "name": "features", "number": 12, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "FieldOptions", "field": [{ "name": "ctype", "number": 1, "type": 14, "label": 1, "typeName": ".google.protobuf.FieldOptions.CType", "defaultValue": "STRING" }, { "name": "packed", "number": 2, "type": 8, "label": 1 }, { "name": "jstype", "number": 6, "type": 14, "label": 1, "typeName": ".google.protobuf.FieldOptions.JSType", "defaultValue": "JS_NORMAL" }, { "name": "lazy", "number": 5, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "unverified_lazy", "number": 15, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "deprecated", "number": 3, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "weak", "number": 10, "type": 8, "label": 1, "defaultValue": "false", "options": { "deprecated": true } }, { "name": "debug_redact", "number": 16, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "retention", "number": 17, "type": 14, "label": 1, "typeName": ".google.protobuf.FieldOptions.OptionRetention" }, { "name": "targets", "number": 19, "type": 14, "label": 3, "typeName": ".google.protobuf.FieldOptions.OptionTargetType" }, { "name": "edition_defaults", "number": 20, "type": 11, "label": 3, "typeName": ".google.protobuf.FieldOptions.EditionDefault" }, { "name": "features", "number": 21, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "feature_support", "number": 22, "type": 11, "label": 1, "typeName": ".google.protobuf.FieldOptions.FeatureSupport" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "nestedType": [{ "name": "EditionDefault", "field": [{ "name": "edition", "number": 3, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }, { "name": "value", "number": 2, "type": 9, "label": 1 }] }, { "name": "FeatureSupport", "field": [{ "name": "edition_introduced", "number": 1, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }, { "name": "edition_deprecated", "number": 2, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }, { "name": "deprecation_warning", "number": 3, "type": 9, "label": 1 }, { "name": "edition_removed", "number": 4, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }, { "name": "removal_error", "number": 5, "type": 9, "label": 1 }] }], "enumType": [{ "name": "CType", "value": [{ "name": "STRING", "number": 0 }, { "name": "CORD", "number": 1 }, { "name": "STRING_PIECE", "number": 2 }] }, { "name": "JSType", "value": [{ "name": "JS_NORMAL", "number": 0 }, { "name": "JS_STRING", "number": 1 }, { "name": "JS_NUMBER", "number": 2 }] }, { "name": "OptionRetention", "value": [{ "name": "RETENTION_UNKNOWN", "number": 0 }, { "name": "RETENTION_RUNTIME", "number": 1 }, { "name": "RETENTION_SOURCE", "number": 2 }] }, { "name": "OptionTargetType", "value": [{ "name": "TARGET_TYPE_UNKNOWN", "number": 0 }, { "name": "TARGET_TYPE_FILE", "number": 1 }, { "name": "TARGET_TYPE_EXTENSION_RANGE", "number": 2 }, { "name": "TARGET_TYPE_MESSAGE", "number": 3 }, { "name": "TARGET_TYPE_FIELD", "number": 4 }, { "name": "TARGET_TYPE_ONEOF", "number": 5 }, { "name": "TARGET_TYPE_ENUM", "number": 6 }, { "name": "TARGET_TYPE_ENUM_ENTRY", "number": 7 }, { "name": "TARGET_TYPE_SERVICE", "number": 8 }, { "name": "TARGET_TYPE_METHOD", "number": 9 }] }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "OneofOptions", "field": [{ "name": "features", "number": 1, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "EnumOptions", "field": [{ "name": "allow_alias", "number": 2, "type": 8, "label": 1 }, { "name": "deprecated", "number": 3, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "deprecated_legacy_json_field_conflicts", "number": 6, "type": 8, "label": 1, "options": { "deprecated": true } }, { "name": "features", "number": 7, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "EnumValueOptions", "field": [{ "name": "deprecated", "number": 1, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "features", "number": 2, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "debug_redact", "number": 3, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "feature_support", "number": 4, "type": 11, "label": 1, "typeName": ".google.protobuf.FieldOptions.FeatureSupport" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "ServiceOptions", "field": [{ "name": "features", "number": 34, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "deprecated", "number": 33, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "MethodOptions", "field": [{ "name": "deprecated", "number": 33, "type": 8, "label": 1, "defaultValue": "false" }, { "name": "idempotency_level", "number": 34, "type": 14, "label": 1, "typeName": ".google.protobuf.MethodOptions.IdempotencyLevel", "defaultValue": "IDEMPOTENCY_UNKNOWN" }, { "name": "features", "number": 35, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "uninterpreted_option", "number": 999, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption" }], "enumType": [{ "name": "IdempotencyLevel", "value": [{ "name": "IDEMPOTENCY_UNKNOWN", "number": 0 }, { "name": "NO_SIDE_EFFECTS", "number": 1 }, { "name": "IDEMPOTENT", "number": 2 }] }], "extensionRange": [{ "start": 1e3, "end": 536870912 }] }, { "name": "UninterpretedOption", "field": [{ "name": "name", "number": 2, "type": 11, "label": 3, "typeName": ".google.protobuf.UninterpretedOption.NamePart" }, { "name": "identifier_value", "number": 3, "type": 9, "label": 1 }, { "name": "positive_int_value", "number": 4, "type": 4, "label": 1 }, { "name": "negative_int_value", "number": 5, "type": 3, "label": 1 }, { "name": "double_value", "number": 6, "type": 1, "label": 1 }, { "name": "string_value", "number": 7, "type": 12, "label": 1 }, { "name": "aggregate_value", "number": 8, "type": 9, "label": 1 }], "nestedType": [{ "name": "NamePart", "field": [{ "name": "name_part", "number": 1, "type": 9, "label": 2 }, { "name": "is_extension", "number": 2, "type": 8, "label": 2 }] }] }, { "name": "FeatureSet", "field": [{ "name": "field_presence", "number": 1, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.FieldPresence", "options": { "retention": 1, "targets": [4, 1], "editionDefaults": [{ "value": "EXPLICIT", "edition": 900 }, { "value": "IMPLICIT", "edition": 999 }, { "value": "EXPLICIT", "edition": 1e3 }] } }, { "name": "enum_type", "number": 2, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.EnumType", "options": { "retention": 1, "targets": [6, 1], "editionDefaults": [{ "value": "CLOSED", "edition": 900 }, { "value": "OPEN", "edition": 999 }] } }, { "name": "repeated_field_encoding", "number": 3, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.RepeatedFieldEncoding", "options": { "retention": 1, "targets": [4, 1], "editionDefaults": [{ "value": "EXPANDED", "edition": 900 }, { "value": "PACKED", "edition": 999 }] } }, { "name": "utf8_validation", "number": 4, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.Utf8Validation", "options": { "retention": 1, "targets": [4, 1], "editionDefaults": [{ "value": "NONE", "edition": 900 }, { "value": "VERIFY", "edition": 999 }] } }, { "name": "message_encoding", "number": 5, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.MessageEncoding", "options": { "retention": 1, "targets": [4, 1], "editionDefaults": [{ "value": "LENGTH_PREFIXED", "edition": 900 }] } }, { "name": "json_format", "number": 6, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.JsonFormat", "options": { "retention": 1, "targets": [3, 6, 1], "editionDefaults": [{ "value": "LEGACY_BEST_EFFORT", "edition": 900 }, { "value": "ALLOW", "edition": 999 }] } }, { "name": "enforce_naming_style", "number": 7, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.EnforceNamingStyle", "options": { "retention": 2, "targets": [1, 2, 3, 4, 5, 6, 7, 8, 9], "editionDefaults": [{ "value": "STYLE_LEGACY", "edition": 900 }, { "value": "STYLE2024", "edition": 1001 }] } }, { "name": "default_symbol_visibility", "number": 8, "type": 14, "label": 1, "typeName": ".google.protobuf.FeatureSet.VisibilityFeature.DefaultSymbolVisibility", "options": { "retention": 2, "targets": [1], "editionDefaults": [{ "value": "EXPORT_ALL", "edition": 900 }, { "value": "EXPORT_TOP_LEVEL", "edition": 1001 }] } }], "nestedType": [{ "name": "VisibilityFeature", "enumType": [{ "name": "DefaultSymbolVisibility", "value": [{ "name": "DEFAULT_SYMBOL_VISIBILITY_UNKNOWN", "number": 0 }, { "name": "EXPORT_ALL", "number": 1 }, { "name": "EXPORT_TOP_LEVEL", "number": 2 }, { "name": "LOCAL_ALL", "number": 3 }, { "name": "STRICT", "number": 4 }] }] }], "enumType": [{ "name": "FieldPresence", "value": [{ "name": "FIELD_PRESENCE_UNKNOWN", "number": 0 }, { "name": "EXPLICIT", "number": 1 }, { "name": "IMPLICIT", "number": 2 }, { "name": "LEGACY_REQUIRED", "number": 3 }] }, { "name": "EnumType", "value": [{ "name": "ENUM_TYPE_UNKNOWN", "number": 0 }, { "name": "OPEN", "number": 1 }, { "name": "CLOSED", "number": 2 }] }, { "name": "RepeatedFieldEncoding", "value": [{ "name": "REPEATED_FIELD_ENCODING_UNKNOWN", "number": 0 }, { "name": "PACKED", "number": 1 }, { "name": "EXPANDED", "number": 2 }] }, { "name": "Utf8Validation", "value": [{ "name": "UTF8_VALIDATION_UNKNOWN", "number": 0 }, { "name": "VERIFY", "number": 2 }, { "name": "NONE", "number": 3 }] }, { "name": "MessageEncoding", "value": [{ "name": "MESSAGE_ENCODING_UNKNOWN", "number": 0 }, { "name": "LENGTH_PREFIXED", "number": 1 }, { "name": "DELIMITED", "number": 2 }] }, { "name": "JsonFormat", "value": [{ "name": "JSON_FORMAT_UNKNOWN", "number": 0 }, { "name": "ALLOW", "number": 1 }, { "name": "LEGACY_BEST_EFFORT", "number": 2 }] }, { "name": "EnforceNamingStyle", "value": [{ "name": "ENFORCE_NAMING_STYLE_UNKNOWN", "number": 0 }, { "name": "STYLE2024", "number": 1 }, { "name": "STYLE_LEGACY", "number": 2 }] }], "extensionRange": [{ "start": 1e3, "end": 9995 }, { "start": 9995, "end": 1e4 }, { "start": 1e4, "end": 10001 }] }, { "name": "FeatureSetDefaults", "field": [{ "name": "defaults", "number": 1, "type": 11, "label": 3, "typeName": ".google.protobuf.FeatureSetDefaults.FeatureSetEditionDefault" }, { "name": "minimum_edition", "number": 4, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }, { "name": "maximum_edition", "number": 5, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }], "nestedType": [{ "name": "FeatureSetEditionDefault", "field": [{ "name": "edition", "number": 3, "type": 14, "label": 1, "typeName": ".google.protobuf.Edition" }, { "name": "overridable_features", "number": 4, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }, { "name": "fixed_features", "number": 5, "type": 11, "label": 1, "typeName": ".google.protobuf.FeatureSet" }] }] }, { "name": "SourceCodeInfo", "field": [{ "name": "location", "number": 1, "type": 11, "label": 3, "typeName": ".google.protobuf.SourceCodeInfo.Location" }], "nestedType": [{ "name": "Location", "field": [{ "name": "path", "number": 1, "type": 5, "label": 3, "options": { "packed": true } }, { "name": "span", "number": 2, "type": 5, "label": 3, "options": { "packed": true } }, { "name": "leading_comments", "number": 3, "type": 9, "label": 1 }, { "name": "trailing_comments", "number": 4, "type": 9, "label": 1 }, { "name": "leading_detached_comments", "number": 6, "type": 9, "label": 3 }] }], "extensionRange": [{ "start": 536e6, "end": 536000001 }] }, { "name": "GeneratedCodeInfo", "field": [{ "name": "annotation", "number": 1, "type": 11, "label": 3, "typeName": ".google.protobuf.GeneratedCodeInfo.Annotation" }], "nestedType": [{ "name": "Annotation", "field": [{ "name": "path", "number": 1, "type": 5, "label": 3, "options": { "packed": true } }, { "name": "source_file", "number": 2, "type": 9, "label": 1 }, { "name": "begin", "number": 3, "type": 5, "label": 1 }, { "name": "end", "number": 4, "type": 5, "label": 1 }, { "name": "semantic", "number": 5, "type": 14, "label": 1, "typeName": ".google.protobuf.GeneratedCodeInfo.Annotation.Semantic" }], "enumType": [{ "name": "Semantic", "value": [{ "name": "NONE", "number": 0 }, { "name": "SET", "number": 1 }, { "name": "ALIAS", "number": 2 }] }] }] }], "enumType": [{ "name": "Edition", "value": [{ "name": "EDITION_UNKNOWN", "number": 0 }, { "name": "EDITION_LEGACY", "number": 900 }, { "name": "EDITION_PROTO2", "number": 998 }, { "name": "EDITION_PROTO3", "number": 999 }, { "name": "EDITION_2023", "number": 1e3 }, { "name": "EDITION_2024", "number": 1001 }, { "name": "EDITION_UNSTABLE", "number": 9999 }, { "name": "EDITION_1_TEST_ONLY", "number": 1 }, { "name": "EDITION_2_TEST_ONLY", "number": 2 }, { "name": "EDITION_99997_TEST_ONLY", "number": 99997 }, { "name": "EDITION_99998_TEST_ONLY", "number": 99998 }, { "name": "EDITION_99999_TEST_ONLY", "number": 99999 }, { "name": "EDITION_MAX", "number": 2147483647 }] }, { "name": "SymbolVisibility", "value": [{ "name": "VISIBILITY_UNSET", "number": 0 }, { "name": "VISIBILITY_LOCAL", "number": 1 }, { "name": "VISIBILITY_EXPORT", "number": 2 }] }] });
var FileDescriptorProtoSchema = /* @__PURE__ */ messageDesc(file_google_protobuf_descriptor, 1);
var ExtensionRangeOptions_VerificationState;
(function(ExtensionRangeOptions_VerificationState2) {
  ExtensionRangeOptions_VerificationState2[ExtensionRangeOptions_VerificationState2["DECLARATION"] = 0] = "DECLARATION";
  ExtensionRangeOptions_VerificationState2[ExtensionRangeOptions_VerificationState2["UNVERIFIED"] = 1] = "UNVERIFIED";
})(ExtensionRangeOptions_VerificationState || (ExtensionRangeOptions_VerificationState = {}));
var FieldDescriptorProto_Type;
(function(FieldDescriptorProto_Type2) {
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["DOUBLE"] = 1] = "DOUBLE";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["FLOAT"] = 2] = "FLOAT";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["INT64"] = 3] = "INT64";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["UINT64"] = 4] = "UINT64";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["INT32"] = 5] = "INT32";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["FIXED64"] = 6] = "FIXED64";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["FIXED32"] = 7] = "FIXED32";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["BOOL"] = 8] = "BOOL";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["STRING"] = 9] = "STRING";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["GROUP"] = 10] = "GROUP";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["MESSAGE"] = 11] = "MESSAGE";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["BYTES"] = 12] = "BYTES";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["UINT32"] = 13] = "UINT32";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["ENUM"] = 14] = "ENUM";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["SFIXED32"] = 15] = "SFIXED32";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["SFIXED64"] = 16] = "SFIXED64";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["SINT32"] = 17] = "SINT32";
  FieldDescriptorProto_Type2[FieldDescriptorProto_Type2["SINT64"] = 18] = "SINT64";
})(FieldDescriptorProto_Type || (FieldDescriptorProto_Type = {}));
var FieldDescriptorProto_Label;
(function(FieldDescriptorProto_Label2) {
  FieldDescriptorProto_Label2[FieldDescriptorProto_Label2["OPTIONAL"] = 1] = "OPTIONAL";
  FieldDescriptorProto_Label2[FieldDescriptorProto_Label2["REPEATED"] = 3] = "REPEATED";
  FieldDescriptorProto_Label2[FieldDescriptorProto_Label2["REQUIRED"] = 2] = "REQUIRED";
})(FieldDescriptorProto_Label || (FieldDescriptorProto_Label = {}));
var FileOptions_OptimizeMode;
(function(FileOptions_OptimizeMode2) {
  FileOptions_OptimizeMode2[FileOptions_OptimizeMode2["SPEED"] = 1] = "SPEED";
  FileOptions_OptimizeMode2[FileOptions_OptimizeMode2["CODE_SIZE"] = 2] = "CODE_SIZE";
  FileOptions_OptimizeMode2[FileOptions_OptimizeMode2["LITE_RUNTIME"] = 3] = "LITE_RUNTIME";
})(FileOptions_OptimizeMode || (FileOptions_OptimizeMode = {}));
var FieldOptions_CType;
(function(FieldOptions_CType2) {
  FieldOptions_CType2[FieldOptions_CType2["STRING"] = 0] = "STRING";
  FieldOptions_CType2[FieldOptions_CType2["CORD"] = 1] = "CORD";
  FieldOptions_CType2[FieldOptions_CType2["STRING_PIECE"] = 2] = "STRING_PIECE";
})(FieldOptions_CType || (FieldOptions_CType = {}));
var FieldOptions_JSType;
(function(FieldOptions_JSType2) {
  FieldOptions_JSType2[FieldOptions_JSType2["JS_NORMAL"] = 0] = "JS_NORMAL";
  FieldOptions_JSType2[FieldOptions_JSType2["JS_STRING"] = 1] = "JS_STRING";
  FieldOptions_JSType2[FieldOptions_JSType2["JS_NUMBER"] = 2] = "JS_NUMBER";
})(FieldOptions_JSType || (FieldOptions_JSType = {}));
var FieldOptions_OptionRetention;
(function(FieldOptions_OptionRetention2) {
  FieldOptions_OptionRetention2[FieldOptions_OptionRetention2["RETENTION_UNKNOWN"] = 0] = "RETENTION_UNKNOWN";
  FieldOptions_OptionRetention2[FieldOptions_OptionRetention2["RETENTION_RUNTIME"] = 1] = "RETENTION_RUNTIME";
  FieldOptions_OptionRetention2[FieldOptions_OptionRetention2["RETENTION_SOURCE"] = 2] = "RETENTION_SOURCE";
})(FieldOptions_OptionRetention || (FieldOptions_OptionRetention = {}));
var FieldOptions_OptionTargetType;
(function(FieldOptions_OptionTargetType2) {
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_UNKNOWN"] = 0] = "TARGET_TYPE_UNKNOWN";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_FILE"] = 1] = "TARGET_TYPE_FILE";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_EXTENSION_RANGE"] = 2] = "TARGET_TYPE_EXTENSION_RANGE";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_MESSAGE"] = 3] = "TARGET_TYPE_MESSAGE";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_FIELD"] = 4] = "TARGET_TYPE_FIELD";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_ONEOF"] = 5] = "TARGET_TYPE_ONEOF";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_ENUM"] = 6] = "TARGET_TYPE_ENUM";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_ENUM_ENTRY"] = 7] = "TARGET_TYPE_ENUM_ENTRY";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_SERVICE"] = 8] = "TARGET_TYPE_SERVICE";
  FieldOptions_OptionTargetType2[FieldOptions_OptionTargetType2["TARGET_TYPE_METHOD"] = 9] = "TARGET_TYPE_METHOD";
})(FieldOptions_OptionTargetType || (FieldOptions_OptionTargetType = {}));
var MethodOptions_IdempotencyLevel;
(function(MethodOptions_IdempotencyLevel2) {
  MethodOptions_IdempotencyLevel2[MethodOptions_IdempotencyLevel2["IDEMPOTENCY_UNKNOWN"] = 0] = "IDEMPOTENCY_UNKNOWN";
  MethodOptions_IdempotencyLevel2[MethodOptions_IdempotencyLevel2["NO_SIDE_EFFECTS"] = 1] = "NO_SIDE_EFFECTS";
  MethodOptions_IdempotencyLevel2[MethodOptions_IdempotencyLevel2["IDEMPOTENT"] = 2] = "IDEMPOTENT";
})(MethodOptions_IdempotencyLevel || (MethodOptions_IdempotencyLevel = {}));
var FeatureSet_VisibilityFeature_DefaultSymbolVisibility;
(function(FeatureSet_VisibilityFeature_DefaultSymbolVisibility2) {
  FeatureSet_VisibilityFeature_DefaultSymbolVisibility2[FeatureSet_VisibilityFeature_DefaultSymbolVisibility2["DEFAULT_SYMBOL_VISIBILITY_UNKNOWN"] = 0] = "DEFAULT_SYMBOL_VISIBILITY_UNKNOWN";
  FeatureSet_VisibilityFeature_DefaultSymbolVisibility2[FeatureSet_VisibilityFeature_DefaultSymbolVisibility2["EXPORT_ALL"] = 1] = "EXPORT_ALL";
  FeatureSet_VisibilityFeature_DefaultSymbolVisibility2[FeatureSet_VisibilityFeature_DefaultSymbolVisibility2["EXPORT_TOP_LEVEL"] = 2] = "EXPORT_TOP_LEVEL";
  FeatureSet_VisibilityFeature_DefaultSymbolVisibility2[FeatureSet_VisibilityFeature_DefaultSymbolVisibility2["LOCAL_ALL"] = 3] = "LOCAL_ALL";
  FeatureSet_VisibilityFeature_DefaultSymbolVisibility2[FeatureSet_VisibilityFeature_DefaultSymbolVisibility2["STRICT"] = 4] = "STRICT";
})(FeatureSet_VisibilityFeature_DefaultSymbolVisibility || (FeatureSet_VisibilityFeature_DefaultSymbolVisibility = {}));
var FeatureSet_FieldPresence;
(function(FeatureSet_FieldPresence2) {
  FeatureSet_FieldPresence2[FeatureSet_FieldPresence2["FIELD_PRESENCE_UNKNOWN"] = 0] = "FIELD_PRESENCE_UNKNOWN";
  FeatureSet_FieldPresence2[FeatureSet_FieldPresence2["EXPLICIT"] = 1] = "EXPLICIT";
  FeatureSet_FieldPresence2[FeatureSet_FieldPresence2["IMPLICIT"] = 2] = "IMPLICIT";
  FeatureSet_FieldPresence2[FeatureSet_FieldPresence2["LEGACY_REQUIRED"] = 3] = "LEGACY_REQUIRED";
})(FeatureSet_FieldPresence || (FeatureSet_FieldPresence = {}));
var FeatureSet_EnumType;
(function(FeatureSet_EnumType2) {
  FeatureSet_EnumType2[FeatureSet_EnumType2["ENUM_TYPE_UNKNOWN"] = 0] = "ENUM_TYPE_UNKNOWN";
  FeatureSet_EnumType2[FeatureSet_EnumType2["OPEN"] = 1] = "OPEN";
  FeatureSet_EnumType2[FeatureSet_EnumType2["CLOSED"] = 2] = "CLOSED";
})(FeatureSet_EnumType || (FeatureSet_EnumType = {}));
var FeatureSet_RepeatedFieldEncoding;
(function(FeatureSet_RepeatedFieldEncoding2) {
  FeatureSet_RepeatedFieldEncoding2[FeatureSet_RepeatedFieldEncoding2["REPEATED_FIELD_ENCODING_UNKNOWN"] = 0] = "REPEATED_FIELD_ENCODING_UNKNOWN";
  FeatureSet_RepeatedFieldEncoding2[FeatureSet_RepeatedFieldEncoding2["PACKED"] = 1] = "PACKED";
  FeatureSet_RepeatedFieldEncoding2[FeatureSet_RepeatedFieldEncoding2["EXPANDED"] = 2] = "EXPANDED";
})(FeatureSet_RepeatedFieldEncoding || (FeatureSet_RepeatedFieldEncoding = {}));
var FeatureSet_Utf8Validation;
(function(FeatureSet_Utf8Validation2) {
  FeatureSet_Utf8Validation2[FeatureSet_Utf8Validation2["UTF8_VALIDATION_UNKNOWN"] = 0] = "UTF8_VALIDATION_UNKNOWN";
  FeatureSet_Utf8Validation2[FeatureSet_Utf8Validation2["VERIFY"] = 2] = "VERIFY";
  FeatureSet_Utf8Validation2[FeatureSet_Utf8Validation2["NONE"] = 3] = "NONE";
})(FeatureSet_Utf8Validation || (FeatureSet_Utf8Validation = {}));
var FeatureSet_MessageEncoding;
(function(FeatureSet_MessageEncoding2) {
  FeatureSet_MessageEncoding2[FeatureSet_MessageEncoding2["MESSAGE_ENCODING_UNKNOWN"] = 0] = "MESSAGE_ENCODING_UNKNOWN";
  FeatureSet_MessageEncoding2[FeatureSet_MessageEncoding2["LENGTH_PREFIXED"] = 1] = "LENGTH_PREFIXED";
  FeatureSet_MessageEncoding2[FeatureSet_MessageEncoding2["DELIMITED"] = 2] = "DELIMITED";
})(FeatureSet_MessageEncoding || (FeatureSet_MessageEncoding = {}));
var FeatureSet_JsonFormat;
(function(FeatureSet_JsonFormat2) {
  FeatureSet_JsonFormat2[FeatureSet_JsonFormat2["JSON_FORMAT_UNKNOWN"] = 0] = "JSON_FORMAT_UNKNOWN";
  FeatureSet_JsonFormat2[FeatureSet_JsonFormat2["ALLOW"] = 1] = "ALLOW";
  FeatureSet_JsonFormat2[FeatureSet_JsonFormat2["LEGACY_BEST_EFFORT"] = 2] = "LEGACY_BEST_EFFORT";
})(FeatureSet_JsonFormat || (FeatureSet_JsonFormat = {}));
var FeatureSet_EnforceNamingStyle;
(function(FeatureSet_EnforceNamingStyle2) {
  FeatureSet_EnforceNamingStyle2[FeatureSet_EnforceNamingStyle2["ENFORCE_NAMING_STYLE_UNKNOWN"] = 0] = "ENFORCE_NAMING_STYLE_UNKNOWN";
  FeatureSet_EnforceNamingStyle2[FeatureSet_EnforceNamingStyle2["STYLE2024"] = 1] = "STYLE2024";
  FeatureSet_EnforceNamingStyle2[FeatureSet_EnforceNamingStyle2["STYLE_LEGACY"] = 2] = "STYLE_LEGACY";
})(FeatureSet_EnforceNamingStyle || (FeatureSet_EnforceNamingStyle = {}));
var GeneratedCodeInfo_Annotation_Semantic;
(function(GeneratedCodeInfo_Annotation_Semantic2) {
  GeneratedCodeInfo_Annotation_Semantic2[GeneratedCodeInfo_Annotation_Semantic2["NONE"] = 0] = "NONE";
  GeneratedCodeInfo_Annotation_Semantic2[GeneratedCodeInfo_Annotation_Semantic2["SET"] = 1] = "SET";
  GeneratedCodeInfo_Annotation_Semantic2[GeneratedCodeInfo_Annotation_Semantic2["ALIAS"] = 2] = "ALIAS";
})(GeneratedCodeInfo_Annotation_Semantic || (GeneratedCodeInfo_Annotation_Semantic = {}));
var Edition;
(function(Edition2) {
  Edition2[Edition2["EDITION_UNKNOWN"] = 0] = "EDITION_UNKNOWN";
  Edition2[Edition2["EDITION_LEGACY"] = 900] = "EDITION_LEGACY";
  Edition2[Edition2["EDITION_PROTO2"] = 998] = "EDITION_PROTO2";
  Edition2[Edition2["EDITION_PROTO3"] = 999] = "EDITION_PROTO3";
  Edition2[Edition2["EDITION_2023"] = 1e3] = "EDITION_2023";
  Edition2[Edition2["EDITION_2024"] = 1001] = "EDITION_2024";
  Edition2[Edition2["EDITION_UNSTABLE"] = 9999] = "EDITION_UNSTABLE";
  Edition2[Edition2["EDITION_1_TEST_ONLY"] = 1] = "EDITION_1_TEST_ONLY";
  Edition2[Edition2["EDITION_2_TEST_ONLY"] = 2] = "EDITION_2_TEST_ONLY";
  Edition2[Edition2["EDITION_99997_TEST_ONLY"] = 99997] = "EDITION_99997_TEST_ONLY";
  Edition2[Edition2["EDITION_99998_TEST_ONLY"] = 99998] = "EDITION_99998_TEST_ONLY";
  Edition2[Edition2["EDITION_99999_TEST_ONLY"] = 99999] = "EDITION_99999_TEST_ONLY";
  Edition2[Edition2["EDITION_MAX"] = 2147483647] = "EDITION_MAX";
})(Edition || (Edition = {}));
var SymbolVisibility;
(function(SymbolVisibility2) {
  SymbolVisibility2[SymbolVisibility2["VISIBILITY_UNSET"] = 0] = "VISIBILITY_UNSET";
  SymbolVisibility2[SymbolVisibility2["VISIBILITY_LOCAL"] = 1] = "VISIBILITY_LOCAL";
  SymbolVisibility2[SymbolVisibility2["VISIBILITY_EXPORT"] = 2] = "VISIBILITY_EXPORT";
})(SymbolVisibility || (SymbolVisibility = {}));

// node_modules/@bufbuild/protobuf/dist/esm/from-binary.js
function makeReadContext(options) {
  return Object.assign(Object.assign({ readUnknownFields: true, recursionLimit: 100 }, options), { depth: 0 });
}
function fromBinary(schema, bytes, options) {
  const msg = reflect(schema, void 0, false);
  readMessage(msg, new BinaryReader(bytes), makeReadContext(options), false, bytes.byteLength);
  return msg.message;
}
function readMessage(message, reader, ctx, delimited, lengthOrDelimitedFieldNo) {
  var _a;
  if (++ctx.depth > ctx.recursionLimit) {
    throw new Error(`cannot decode ${message.desc} from binary: maximum recursion depth of ${ctx.recursionLimit} reached`);
  }
  const end = delimited ? reader.len : reader.pos + lengthOrDelimitedFieldNo;
  let fieldNo;
  let wireType;
  const unknownFields = (_a = message.getUnknown()) !== null && _a !== void 0 ? _a : [];
  while (reader.pos < end) {
    [fieldNo, wireType] = reader.tag();
    if (delimited && wireType == WireType.EndGroup) {
      break;
    }
    const field = message.findNumber(fieldNo);
    if (!field) {
      const recursionLimit = ctx.recursionLimit - ctx.depth;
      const data = reader.skip(wireType, fieldNo, recursionLimit);
      if (ctx.readUnknownFields) {
        unknownFields.push({ no: fieldNo, wireType, data });
      }
      continue;
    }
    readField(message, reader, field, wireType, ctx);
  }
  if (delimited) {
    if (wireType != WireType.EndGroup || fieldNo !== lengthOrDelimitedFieldNo) {
      throw new Error("invalid end group tag");
    }
  }
  if (unknownFields.length > 0) {
    message.setUnknown(unknownFields);
  }
  ctx.depth--;
}
function readField(message, reader, field, wireType, ctx) {
  var _a;
  switch (field.fieldKind) {
    case "scalar":
      message.set(field, readScalar(reader, field.scalar, field.utf8Validation));
      break;
    case "enum":
      const val = readScalar(reader, ScalarType.INT32);
      if (field.enum.open) {
        message.set(field, val);
      } else {
        const ok = field.enum.values.some((v) => v.number === val);
        if (ok) {
          message.set(field, val);
        } else if (ctx.readUnknownFields) {
          const bytes = [];
          varint32write(val, bytes);
          const unknownFields = (_a = message.getUnknown()) !== null && _a !== void 0 ? _a : [];
          unknownFields.push({
            no: field.number,
            wireType,
            data: new Uint8Array(bytes)
          });
          message.setUnknown(unknownFields);
        }
      }
      break;
    case "message":
      message.set(field, readMessageField(reader, ctx, field, message.get(field)));
      break;
    case "list":
      readListField(reader, wireType, message.get(field), ctx);
      break;
    case "map":
      readMapEntry(reader, message.get(field), ctx);
      break;
  }
}
function readMapEntry(reader, map, ctx) {
  const field = map.field();
  let key;
  let val;
  const len = reader.uint32();
  const end = reader.pos + len;
  while (reader.pos < end) {
    const [fieldNo] = reader.tag();
    switch (fieldNo) {
      case 1:
        key = readScalar(reader, field.mapKey, field.utf8Validation);
        break;
      case 2:
        switch (field.mapKind) {
          case "scalar":
            val = readScalar(reader, field.scalar, field.utf8Validation);
            break;
          case "enum":
            val = reader.int32();
            break;
          case "message":
            val = readMessageField(reader, ctx, field);
            break;
        }
        break;
    }
  }
  if (key === void 0) {
    key = scalarZeroValue(field.mapKey, false);
  }
  if (val === void 0) {
    switch (field.mapKind) {
      case "scalar":
        val = scalarZeroValue(field.scalar, false);
        break;
      case "enum":
        val = field.enum.values[0].number;
        break;
      case "message":
        val = reflect(field.message, void 0, false);
        break;
    }
  }
  map.set(key, val);
}
function readListField(reader, wireType, list, ctx) {
  var _a;
  const field = list.field();
  if (field.listKind === "message") {
    list.add(readMessageField(reader, ctx, field));
    return;
  }
  const scalarType = (_a = field.scalar) !== null && _a !== void 0 ? _a : ScalarType.INT32;
  const packed = wireType == WireType.LengthDelimited && scalarType != ScalarType.STRING && scalarType != ScalarType.BYTES;
  if (!packed) {
    list.add(readScalar(reader, scalarType, field.utf8Validation));
    return;
  }
  const e = reader.uint32() + reader.pos;
  while (reader.pos < e) {
    list.add(readScalar(reader, scalarType, field.utf8Validation));
  }
}
function readMessageField(reader, ctx, field, mergeMessage) {
  const delimited = field.delimitedEncoding;
  const message = mergeMessage !== null && mergeMessage !== void 0 ? mergeMessage : reflect(field.message, void 0, false);
  readMessage(message, reader, ctx, delimited, delimited ? field.number : reader.uint32());
  return message;
}
function readScalar(reader, type, validateUtf8 = false) {
  switch (type) {
    case ScalarType.STRING:
      return reader.string(validateUtf8);
    case ScalarType.BOOL:
      return reader.bool();
    case ScalarType.DOUBLE:
      return reader.double();
    case ScalarType.FLOAT:
      return reader.float();
    case ScalarType.INT32:
      return reader.int32();
    case ScalarType.INT64:
      return reader.int64();
    case ScalarType.UINT64:
      return reader.uint64();
    case ScalarType.FIXED64:
      return reader.fixed64();
    case ScalarType.BYTES:
      return reader.bytes();
    case ScalarType.FIXED32:
      return reader.fixed32();
    case ScalarType.SFIXED32:
      return reader.sfixed32();
    case ScalarType.SFIXED64:
      return reader.sfixed64();
    case ScalarType.SINT64:
      return reader.sint64();
    case ScalarType.UINT32:
      return reader.uint32();
    case ScalarType.SINT32:
      return reader.sint32();
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/codegenv2/file.js
function fileDesc(b64, imports) {
  var _a;
  const root = fromBinary(FileDescriptorProtoSchema, base64Decode(b64));
  root.messageType.forEach(restoreJsonNames);
  root.dependency = (_a = imports === null || imports === void 0 ? void 0 : imports.map((f) => f.proto.name)) !== null && _a !== void 0 ? _a : [];
  const reg = createFileRegistry(root, (protoFileName) => imports === null || imports === void 0 ? void 0 : imports.find((f) => f.proto.name === protoFileName));
  return reg.getFile(root.name);
}

// node_modules/@bufbuild/protobuf/dist/esm/wkt/gen/google/protobuf/timestamp_pb.js
var file_google_protobuf_timestamp = /* @__PURE__ */ fileDesc("Ch9nb29nbGUvcHJvdG9idWYvdGltZXN0YW1wLnByb3RvEg9nb29nbGUucHJvdG9idWYiKwoJVGltZXN0YW1wEg8KB3NlY29uZHMYASABKAMSDQoFbmFub3MYAiABKAVChQEKE2NvbS5nb29nbGUucHJvdG9idWZCDlRpbWVzdGFtcFByb3RvUAFaMmdvb2dsZS5nb2xhbmcub3JnL3Byb3RvYnVmL3R5cGVzL2tub3duL3RpbWVzdGFtcHBi+AEBogIDR1BCqgIeR29vZ2xlLlByb3RvYnVmLldlbGxLbm93blR5cGVzYgZwcm90bzM");
var TimestampSchema = /* @__PURE__ */ messageDesc(file_google_protobuf_timestamp, 0);

// node_modules/@bufbuild/protobuf/dist/esm/wkt/timestamp.js
function timestampDate(timestamp) {
  return new Date(timestampMs(timestamp));
}
function timestampFromMs(timestampMs2) {
  const seconds = Math.floor(timestampMs2 / 1e3);
  return create(TimestampSchema, {
    seconds: protoInt64.parse(seconds),
    nanos: (timestampMs2 - seconds * 1e3) * 1e6
  });
}
function timestampMs(timestamp) {
  return Number(timestamp.seconds) * 1e3 + Math.round(timestamp.nanos / 1e6);
}

// node_modules/@bufbuild/protobuf/dist/esm/wkt/gen/google/protobuf/any_pb.js
var file_google_protobuf_any = /* @__PURE__ */ fileDesc("Chlnb29nbGUvcHJvdG9idWYvYW55LnByb3RvEg9nb29nbGUucHJvdG9idWYiJgoDQW55EhAKCHR5cGVfdXJsGAEgASgJEg0KBXZhbHVlGAIgASgMQnYKE2NvbS5nb29nbGUucHJvdG9idWZCCEFueVByb3RvUAFaLGdvb2dsZS5nb2xhbmcub3JnL3Byb3RvYnVmL3R5cGVzL2tub3duL2FueXBiogIDR1BCqgIeR29vZ2xlLlByb3RvYnVmLldlbGxLbm93blR5cGVzYgZwcm90bzM");
var AnySchema = /* @__PURE__ */ messageDesc(file_google_protobuf_any, 0);

// node_modules/@bufbuild/protobuf/dist/esm/to-binary.js
var LEGACY_REQUIRED2 = 3;
var writeDefaults = {
  writeUnknownFields: true
};
function makeWriteOptions(options) {
  return options ? Object.assign(Object.assign({}, writeDefaults), options) : writeDefaults;
}
function toBinary(schema, message, options) {
  return writeFields(new BinaryWriter(), makeWriteOptions(options), reflect(schema, message)).finish();
}
function writeFields(writer, opts, msg) {
  var _a;
  for (const f of msg.sortedFields) {
    if (!msg.isSet(f)) {
      if (f.presence == LEGACY_REQUIRED2) {
        throw new Error(`cannot encode ${f} to binary: required field not set`);
      }
      continue;
    }
    writeField(writer, opts, msg, f);
  }
  if (opts.writeUnknownFields) {
    for (const { no, wireType, data } of (_a = msg.getUnknown()) !== null && _a !== void 0 ? _a : []) {
      writer.tag(no, wireType).raw(data);
    }
  }
  return writer;
}
function writeField(writer, opts, msg, field) {
  var _a;
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
      writeScalar(writer, msg.desc.typeName, field.name, (_a = field.scalar) !== null && _a !== void 0 ? _a : ScalarType.INT32, field.number, msg.get(field));
      break;
    case "list":
      writeListField(writer, opts, field, msg.get(field));
      break;
    case "message":
      writeMessageField(writer, opts, field, msg.get(field));
      break;
    case "map":
      for (const [key, val] of msg.get(field)) {
        writeMapEntry(writer, opts, field, key, val);
      }
      break;
  }
}
function writeScalar(writer, msgName, fieldName, scalarType, fieldNo, value) {
  writeScalarValue(writer.tag(fieldNo, writeTypeOfScalar(scalarType)), msgName, fieldName, scalarType, value);
}
function writeMessageField(writer, opts, field, message) {
  if (field.delimitedEncoding) {
    writeFields(writer.tag(field.number, WireType.StartGroup), opts, message).tag(field.number, WireType.EndGroup);
  } else {
    writeFields(writer.tag(field.number, WireType.LengthDelimited).fork(), opts, message).join();
  }
}
function writeListField(writer, opts, field, list) {
  var _a;
  if (field.listKind == "message") {
    for (const item of list) {
      writeMessageField(writer, opts, field, item);
    }
    return;
  }
  const scalarType = (_a = field.scalar) !== null && _a !== void 0 ? _a : ScalarType.INT32;
  if (field.packed) {
    if (!list.size) {
      return;
    }
    writer.tag(field.number, WireType.LengthDelimited).fork();
    for (const item of list) {
      writeScalarValue(writer, field.parent.typeName, field.name, scalarType, item);
    }
    writer.join();
    return;
  }
  for (const item of list) {
    writeScalar(writer, field.parent.typeName, field.name, scalarType, field.number, item);
  }
}
function writeMapEntry(writer, opts, field, key, value) {
  var _a;
  writer.tag(field.number, WireType.LengthDelimited).fork();
  writeScalar(writer, field.parent.typeName, field.name, field.mapKey, 1, key);
  switch (field.mapKind) {
    case "scalar":
    case "enum":
      writeScalar(writer, field.parent.typeName, field.name, (_a = field.scalar) !== null && _a !== void 0 ? _a : ScalarType.INT32, 2, value);
      break;
    case "message":
      writeFields(writer.tag(2, WireType.LengthDelimited).fork(), opts, value).join();
      break;
  }
  writer.join();
}
function writeScalarValue(writer, msgName, fieldName, type, value) {
  try {
    switch (type) {
      case ScalarType.STRING:
        writer.string(value);
        break;
      case ScalarType.BOOL:
        writer.bool(value);
        break;
      case ScalarType.DOUBLE:
        writer.double(value);
        break;
      case ScalarType.FLOAT:
        writer.float(value);
        break;
      case ScalarType.INT32:
        writer.int32(value);
        break;
      case ScalarType.INT64:
        writer.int64(value);
        break;
      case ScalarType.UINT64:
        writer.uint64(value);
        break;
      case ScalarType.FIXED64:
        writer.fixed64(value);
        break;
      case ScalarType.BYTES:
        writer.bytes(value);
        break;
      case ScalarType.FIXED32:
        writer.fixed32(value);
        break;
      case ScalarType.SFIXED32:
        writer.sfixed32(value);
        break;
      case ScalarType.SFIXED64:
        writer.sfixed64(value);
        break;
      case ScalarType.SINT64:
        writer.sint64(value);
        break;
      case ScalarType.UINT32:
        writer.uint32(value);
        break;
      case ScalarType.SINT32:
        writer.sint32(value);
        break;
    }
  } catch (e) {
    if (e instanceof Error) {
      throw new Error(`cannot encode field ${msgName}.${fieldName} to binary: ${e.message}`);
    }
    throw e;
  }
}
function writeTypeOfScalar(type) {
  switch (type) {
    case ScalarType.BYTES:
    case ScalarType.STRING:
      return WireType.LengthDelimited;
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WireType.Bit64;
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
    case ScalarType.FLOAT:
      return WireType.Bit32;
    default:
      return WireType.Varint;
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/wkt/any.js
function anyPack(schema, message, into) {
  let ret = false;
  if (!into) {
    into = create(AnySchema);
    ret = true;
  }
  into.value = toBinary(schema, message);
  into.typeUrl = typeNameToUrl(message.$typeName);
  return ret ? into : void 0;
}
function anyIs(any, descOrTypeName) {
  if (any.typeUrl === "") {
    return false;
  }
  const want = typeof descOrTypeName == "string" ? descOrTypeName : descOrTypeName.typeName;
  const got = typeUrlToName(any.typeUrl);
  return want === got;
}
function anyUnpack(any, registryOrMessageDesc) {
  if (any.typeUrl === "") {
    return void 0;
  }
  const desc = registryOrMessageDesc.kind == "message" ? registryOrMessageDesc : registryOrMessageDesc.getMessage(typeUrlToName(any.typeUrl));
  if (!desc || !anyIs(any, desc)) {
    return void 0;
  }
  return fromBinary(desc, any.value);
}
function typeNameToUrl(name) {
  return `type.googleapis.com/${name}`;
}
function typeUrlToName(url) {
  const slash = url.lastIndexOf("/");
  const name = slash >= 0 ? url.substring(slash + 1) : url;
  if (!name.length) {
    throw new Error(`invalid type url: ${url}`);
  }
  return name;
}

// node_modules/@bufbuild/protobuf/dist/esm/wkt/gen/google/protobuf/struct_pb.js
var file_google_protobuf_struct = /* @__PURE__ */ fileDesc("Chxnb29nbGUvcHJvdG9idWYvc3RydWN0LnByb3RvEg9nb29nbGUucHJvdG9idWYihAEKBlN0cnVjdBIzCgZmaWVsZHMYASADKAsyIy5nb29nbGUucHJvdG9idWYuU3RydWN0LkZpZWxkc0VudHJ5GkUKC0ZpZWxkc0VudHJ5EgsKA2tleRgBIAEoCRIlCgV2YWx1ZRgCIAEoCzIWLmdvb2dsZS5wcm90b2J1Zi5WYWx1ZToCOAEi6gEKBVZhbHVlEjAKCm51bGxfdmFsdWUYASABKA4yGi5nb29nbGUucHJvdG9idWYuTnVsbFZhbHVlSAASFgoMbnVtYmVyX3ZhbHVlGAIgASgBSAASFgoMc3RyaW5nX3ZhbHVlGAMgASgJSAASFAoKYm9vbF92YWx1ZRgEIAEoCEgAEi8KDHN0cnVjdF92YWx1ZRgFIAEoCzIXLmdvb2dsZS5wcm90b2J1Zi5TdHJ1Y3RIABIwCgpsaXN0X3ZhbHVlGAYgASgLMhouZ29vZ2xlLnByb3RvYnVmLkxpc3RWYWx1ZUgAQgYKBGtpbmQiMwoJTGlzdFZhbHVlEiYKBnZhbHVlcxgBIAMoCzIWLmdvb2dsZS5wcm90b2J1Zi5WYWx1ZSobCglOdWxsVmFsdWUSDgoKTlVMTF9WQUxVRRAAQn8KE2NvbS5nb29nbGUucHJvdG9idWZCC1N0cnVjdFByb3RvUAFaL2dvb2dsZS5nb2xhbmcub3JnL3Byb3RvYnVmL3R5cGVzL2tub3duL3N0cnVjdHBi+AEBogIDR1BCqgIeR29vZ2xlLlByb3RvYnVmLldlbGxLbm93blR5cGVzYgZwcm90bzM");
var StructSchema = /* @__PURE__ */ messageDesc(file_google_protobuf_struct, 0);
var ValueSchema = /* @__PURE__ */ messageDesc(file_google_protobuf_struct, 1);
var ListValueSchema = /* @__PURE__ */ messageDesc(file_google_protobuf_struct, 2);
var NullValue;
(function(NullValue2) {
  NullValue2[NullValue2["NULL_VALUE"] = 0] = "NULL_VALUE";
})(NullValue || (NullValue = {}));

// node_modules/@bufbuild/protobuf/dist/esm/extensions.js
function getExtension(message, extension, options) {
  assertExtendee(extension, message);
  const ufs = filterUnknownFields(message.$unknown, extension);
  const [container, field, get] = createExtensionContainer(extension);
  const ctx = makeReadContext(options);
  for (const uf of ufs) {
    readField(container, new BinaryReader(uf.data), field, uf.wireType, ctx);
  }
  return get();
}
function setExtension(message, extension, value) {
  var _a;
  assertExtendee(extension, message);
  const ufs = ((_a = message.$unknown) !== null && _a !== void 0 ? _a : []).filter((uf) => uf.no !== extension.number);
  const [container, field] = createExtensionContainer(extension, value);
  const writer = new BinaryWriter();
  writeField(writer, { writeUnknownFields: true }, container, field);
  const reader = new BinaryReader(writer.finish());
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    const data = reader.skip(wireType, no);
    ufs.push({ no, wireType, data });
  }
  message.$unknown = ufs;
}
function filterUnknownFields(unknownFields, extension) {
  if (unknownFields === void 0)
    return [];
  if (extension.fieldKind === "enum" || extension.fieldKind === "scalar") {
    for (let i = unknownFields.length - 1; i >= 0; --i) {
      if (unknownFields[i].no == extension.number) {
        return [unknownFields[i]];
      }
    }
    return [];
  }
  return unknownFields.filter((uf) => uf.no === extension.number);
}
function createExtensionContainer(extension, value) {
  const localName = extension.typeName;
  const field = Object.assign(Object.assign({}, extension), { kind: "field", parent: extension.extendee, localName });
  const desc = Object.assign(Object.assign({}, extension.extendee), { fields: [field], members: [field], oneofs: [] });
  const container = create(desc, value !== void 0 ? { [localName]: value } : void 0);
  return [
    reflect(desc, container),
    field,
    () => {
      const value2 = container[localName];
      if (value2 === void 0) {
        const desc2 = extension.message;
        if (isWrapperDesc(desc2)) {
          return scalarZeroValue(desc2.fields[0].scalar, desc2.fields[0].longAsString);
        }
        return create(desc2);
      }
      return value2;
    }
  ];
}
function assertExtendee(extension, message) {
  if (extension.extendee.typeName != message.$typeName) {
    throw new Error(`extension ${extension.typeName} can only be applied to message ${extension.extendee.typeName}`);
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/to-json.js
var LEGACY_REQUIRED3 = 3;
var IMPLICIT4 = 2;
var jsonWriteDefaults = {
  alwaysEmitImplicit: false,
  enumAsInteger: false,
  useProtoFieldName: false
};
function makeWriteOptions2(options) {
  return options ? Object.assign(Object.assign({}, jsonWriteDefaults), options) : jsonWriteDefaults;
}
function toJson(schema, message, options) {
  return reflectToJson(reflect(schema, message), makeWriteOptions2(options));
}
function toJsonString(schema, message, options) {
  var _a;
  const jsonValue = toJson(schema, message, options);
  return JSON.stringify(jsonValue, null, (_a = options === null || options === void 0 ? void 0 : options.prettySpaces) !== null && _a !== void 0 ? _a : 0);
}
function reflectToJson(msg, opts) {
  var _a;
  const wktJson = tryWktToJson(msg, opts);
  if (wktJson !== void 0)
    return wktJson;
  const json = {};
  for (const f of msg.sortedFields) {
    if (!msg.isSet(f)) {
      if (f.presence == LEGACY_REQUIRED3) {
        throw new Error(`cannot encode ${f} to JSON: required field not set`);
      }
      if (!opts.alwaysEmitImplicit || f.presence !== IMPLICIT4) {
        continue;
      }
    }
    const jsonValue = fieldToJson(f, msg.get(f), opts);
    if (jsonValue !== void 0) {
      json[jsonName(f, opts)] = jsonValue;
    }
  }
  if (opts.registry) {
    const tagSeen = /* @__PURE__ */ new Set();
    for (const { no } of (_a = msg.getUnknown()) !== null && _a !== void 0 ? _a : []) {
      if (!tagSeen.has(no)) {
        tagSeen.add(no);
        const extension = opts.registry.getExtensionFor(msg.desc, no);
        if (!extension) {
          continue;
        }
        const value = getExtension(msg.message, extension);
        const [container, field] = createExtensionContainer(extension, value);
        const jsonValue = fieldToJson(field, container.get(field), opts);
        if (jsonValue !== void 0) {
          json[extension.jsonName] = jsonValue;
        }
      }
    }
  }
  return json;
}
function fieldToJson(f, val, opts) {
  switch (f.fieldKind) {
    case "scalar":
      return scalarToJson(f, val);
    case "message":
      return reflectToJson(val, opts);
    case "enum":
      return enumToJsonInternal(f.enum, val, opts.enumAsInteger);
    case "list":
      return listToJson(val, opts);
    case "map":
      return mapToJson(val, opts);
  }
}
function mapToJson(map, opts) {
  const f = map.field();
  const jsonObj = {};
  switch (f.mapKind) {
    case "scalar":
      for (const [entryKey, entryValue] of map) {
        jsonObj[entryKey] = scalarToJson(f, entryValue);
      }
      break;
    case "message":
      for (const [entryKey, entryValue] of map) {
        jsonObj[entryKey] = reflectToJson(entryValue, opts);
      }
      break;
    case "enum":
      for (const [entryKey, entryValue] of map) {
        jsonObj[entryKey] = enumToJsonInternal(f.enum, entryValue, opts.enumAsInteger);
      }
      break;
  }
  return opts.alwaysEmitImplicit || map.size > 0 ? jsonObj : void 0;
}
function listToJson(list, opts) {
  const f = list.field();
  const jsonArr = [];
  switch (f.listKind) {
    case "scalar":
      for (const item of list) {
        jsonArr.push(scalarToJson(f, item));
      }
      break;
    case "enum":
      for (const item of list) {
        jsonArr.push(enumToJsonInternal(f.enum, item, opts.enumAsInteger));
      }
      break;
    case "message":
      for (const item of list) {
        jsonArr.push(reflectToJson(item, opts));
      }
      break;
  }
  return opts.alwaysEmitImplicit || jsonArr.length > 0 ? jsonArr : void 0;
}
function enumToJsonInternal(desc, value, enumAsInteger) {
  var _a;
  if (typeof value != "number") {
    throw new Error(`cannot encode ${desc} to JSON: expected number, got ${formatVal(value)}`);
  }
  if (desc.typeName == "google.protobuf.NullValue") {
    return null;
  }
  if (enumAsInteger) {
    return value;
  }
  const val = desc.value[value];
  return (_a = val === null || val === void 0 ? void 0 : val.name) !== null && _a !== void 0 ? _a : value;
}
function scalarToJson(field, value) {
  var _a, _b, _c, _d, _e, _f;
  switch (field.scalar) {
    // int32, fixed32, uint32: JSON value will be a decimal number. Either numbers or strings are accepted.
    case ScalarType.INT32:
    case ScalarType.SFIXED32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT32:
      if (typeof value != "number") {
        throw new Error(`cannot encode ${field} to JSON: ${(_a = checkField(field, value)) === null || _a === void 0 ? void 0 : _a.message}`);
      }
      return value;
    // float, double: JSON value will be a number or one of the special string values "NaN", "Infinity", and "-Infinity".
    // Either numbers or strings are accepted. Exponent notation is also accepted.
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      if (typeof value != "number") {
        throw new Error(`cannot encode ${field} to JSON: ${(_b = checkField(field, value)) === null || _b === void 0 ? void 0 : _b.message}`);
      }
      if (Number.isNaN(value))
        return "NaN";
      if (value === Number.POSITIVE_INFINITY)
        return "Infinity";
      if (value === Number.NEGATIVE_INFINITY)
        return "-Infinity";
      return value;
    // string:
    case ScalarType.STRING:
      if (typeof value != "string") {
        throw new Error(`cannot encode ${field} to JSON: ${(_c = checkField(field, value)) === null || _c === void 0 ? void 0 : _c.message}`);
      }
      return value;
    // bool:
    case ScalarType.BOOL:
      if (typeof value != "boolean") {
        throw new Error(`cannot encode ${field} to JSON: ${(_d = checkField(field, value)) === null || _d === void 0 ? void 0 : _d.message}`);
      }
      return value;
    // JSON value will be a decimal string. Either numbers or strings are accepted.
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
    case ScalarType.INT64:
    case ScalarType.SFIXED64:
    case ScalarType.SINT64:
      if (typeof value == "bigint" || typeof value == "string" || typeof value == "number" && Number.isInteger(value)) {
        return value.toString();
      }
      throw new Error(`cannot encode ${field} to JSON: ${(_e = checkField(field, value)) === null || _e === void 0 ? void 0 : _e.message}`);
    // bytes: JSON value will be the data encoded as a string using standard base64 encoding with paddings.
    // Either standard or URL-safe base64 encoding with/without paddings are accepted.
    case ScalarType.BYTES:
      if (value instanceof Uint8Array) {
        return base64Encode(value);
      }
      throw new Error(`cannot encode ${field} to JSON: ${(_f = checkField(field, value)) === null || _f === void 0 ? void 0 : _f.message}`);
  }
}
function jsonName(f, opts) {
  return opts.useProtoFieldName ? f.name : f.jsonName;
}
function tryWktToJson(msg, opts) {
  if (!msg.desc.typeName.startsWith("google.protobuf.")) {
    return void 0;
  }
  switch (msg.desc.typeName) {
    case "google.protobuf.Any":
      return anyToJson(msg.message, opts);
    case "google.protobuf.Timestamp":
      return timestampToJson(msg.message);
    case "google.protobuf.Duration":
      return durationToJson(msg.message);
    case "google.protobuf.FieldMask":
      return fieldMaskToJson(msg.message);
    case "google.protobuf.Struct":
      return structToJson(msg.message);
    case "google.protobuf.Value":
      return valueToJson(msg.message);
    case "google.protobuf.ListValue":
      return listValueToJson(msg.message);
    default:
      if (isWrapperDesc(msg.desc)) {
        const valueField = msg.desc.fields[0];
        return scalarToJson(valueField, msg.get(valueField));
      }
      return void 0;
  }
}
function anyToJson(val, opts) {
  if (val.typeUrl === "") {
    return {};
  }
  const { registry } = opts;
  let message;
  let desc;
  if (registry) {
    message = anyUnpack(val, registry);
    if (message) {
      desc = registry.getMessage(message.$typeName);
    }
  }
  if (!desc || !message) {
    throw new Error(`cannot encode message ${val.$typeName} to JSON: "${val.typeUrl}" is not in the type registry`);
  }
  const reflected = reflect(desc, message);
  const json = hasCustomJsonRepresentation(desc) ? { value: tryWktToJson(reflected, opts) } : reflectToJson(reflected, opts);
  json["@type"] = val.typeUrl;
  return json;
}
function durationToJson(val) {
  const seconds = Number(val.seconds);
  const nanos = val.nanos;
  if (seconds > 315576e6 || seconds < -315576e6) {
    throw new Error(`cannot encode message ${val.$typeName} to JSON: value out of range`);
  }
  if (seconds > 0 && nanos < 0 || seconds < 0 && nanos > 0) {
    throw new Error(`cannot encode message ${val.$typeName} to JSON: nanos sign must match seconds sign`);
  }
  let text2 = val.seconds.toString();
  if (nanos !== 0) {
    let nanosStr = Math.abs(nanos).toString();
    nanosStr = "0".repeat(9 - nanosStr.length) + nanosStr;
    if (nanosStr.substring(3) === "000000") {
      nanosStr = nanosStr.substring(0, 3);
    } else if (nanosStr.substring(6) === "000") {
      nanosStr = nanosStr.substring(0, 6);
    }
    text2 += "." + nanosStr;
    if (nanos < 0 && seconds == 0) {
      text2 = "-" + text2;
    }
  }
  return text2 + "s";
}
function fieldMaskToJson(val) {
  return val.paths.map((p) => {
    if (protoSnakeCase(protoCamelCase(p)) !== p) {
      throw new Error(`cannot encode message ${val.$typeName} to JSON: lowerCamelCase of path name "${p}" is irreversible`);
    }
    return protoCamelCase(p);
  }).join(",");
}
function structToJson(val) {
  const json = {};
  for (const [k, v] of Object.entries(val.fields)) {
    json[k] = valueToJson(v);
  }
  return json;
}
function valueToJson(val) {
  switch (val.kind.case) {
    case "nullValue":
      return null;
    case "numberValue":
      if (!Number.isFinite(val.kind.value)) {
        throw new Error(`${val.$typeName} cannot be NaN or Infinity`);
      }
      return val.kind.value;
    case "boolValue":
      return val.kind.value;
    case "stringValue":
      return val.kind.value;
    case "structValue":
      return structToJson(val.kind.value);
    case "listValue":
      return listValueToJson(val.kind.value);
    default:
      throw new Error(`${val.$typeName} must have a value`);
  }
}
function listValueToJson(val) {
  return val.values.map(valueToJson);
}
function timestampToJson(val) {
  const ms = Number(val.seconds) * 1e3;
  if (ms < Date.parse("0001-01-01T00:00:00Z") || ms > Date.parse("9999-12-31T23:59:59Z")) {
    throw new Error(`cannot encode message ${val.$typeName} to JSON: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z inclusive`);
  }
  if (val.nanos < 0) {
    throw new Error(`cannot encode message ${val.$typeName} to JSON: nanos must not be negative`);
  }
  if (val.nanos > 999999999) {
    throw new Error(`cannot encode message ${val.$typeName} to JSON: nanos must not be greater than 99999999`);
  }
  let z = "Z";
  if (val.nanos > 0) {
    const nanosStr = (val.nanos + 1e9).toString().substring(1);
    if (nanosStr.substring(3) === "000000") {
      z = "." + nanosStr.substring(0, 3) + "Z";
    } else if (nanosStr.substring(6) === "000") {
      z = "." + nanosStr.substring(0, 6) + "Z";
    } else {
      z = "." + nanosStr + "Z";
    }
  }
  return new Date(ms).toISOString().replace(".000Z", z);
}

// node_modules/@bufbuild/protobuf/dist/esm/from-json.js
function makeReadContext2(options) {
  return Object.assign(Object.assign({ ignoreUnknownFields: false, recursionLimit: 100 }, options), { depth: 0 });
}
function fromJsonString(schema, json, options) {
  return fromJson(schema, parseJsonString(json, schema.typeName), options);
}
function fromJson(schema, json, options) {
  const msg = reflect(schema);
  try {
    readMessage2(msg, json, makeReadContext2(options));
  } catch (e) {
    if (isFieldError(e)) {
      throw new Error(`cannot decode ${e.field()} from JSON: ${e.message}`, {
        cause: e
      });
    }
    throw e;
  }
  return msg.message;
}
var messageJsonFields = /* @__PURE__ */ new WeakMap();
function getJsonField(desc, jsonKey) {
  var _a;
  if (!messageJsonFields.has(desc)) {
    const jsonNames = /* @__PURE__ */ new Map();
    for (const field of desc.fields) {
      jsonNames.set(field.name, field).set(field.jsonName, field);
    }
    messageJsonFields.set(desc, jsonNames);
  }
  return (_a = messageJsonFields.get(desc)) === null || _a === void 0 ? void 0 : _a.get(jsonKey);
}
function readMessage2(msg, json, ctx) {
  var _a;
  if (++ctx.depth > ctx.recursionLimit) {
    throw new Error(`cannot decode ${msg.desc} from JSON: maximum recursion depth of ${ctx.recursionLimit} reached`);
  }
  if (tryWktFromJson(msg, json, ctx)) {
    ctx.depth--;
    return;
  }
  if (json == null || Array.isArray(json) || typeof json != "object") {
    throw new Error(`cannot decode ${msg.desc} from JSON: ${formatVal(json)}`);
  }
  const oneofSeen = /* @__PURE__ */ new Map();
  const fieldSeen = /* @__PURE__ */ new Set();
  for (const [jsonKey, jsonValue] of Object.entries(json)) {
    const field = getJsonField(msg.desc, jsonKey);
    if (field) {
      if (fieldSeen.has(field)) {
        throw new FieldError(field, "set multiple times");
      }
      fieldSeen.add(field);
      if (field.oneof && jsonValue === null && field.fieldKind == "scalar") {
        continue;
      }
      if (field.oneof) {
        const seen = oneofSeen.get(field.oneof);
        if (seen !== void 0) {
          throw new FieldError(field.oneof, `oneof set multiple times by ${seen.name} and ${field.name}`);
        }
        oneofSeen.set(field.oneof, field);
      }
      readField2(msg, field, jsonValue, ctx);
    } else {
      let extension = void 0;
      if (jsonKey.startsWith("[") && jsonKey.endsWith("]") && // biome-ignore lint/suspicious/noAssignInExpressions: no
      (extension = (_a = ctx.registry) === null || _a === void 0 ? void 0 : _a.getExtension(jsonKey.substring(1, jsonKey.length - 1))) && extension.extendee.typeName === msg.desc.typeName) {
        const [container, field2, get] = createExtensionContainer(extension);
        readField2(container, field2, jsonValue, ctx);
        setExtension(msg.message, extension, get());
      }
      if (!extension && !ctx.ignoreUnknownFields) {
        throw new Error(`cannot decode ${msg.desc} from JSON: key "${jsonKey}" is unknown`);
      }
    }
  }
  ctx.depth--;
}
function readField2(msg, field, json, ctx) {
  switch (field.fieldKind) {
    case "scalar":
      readScalarField(msg, field, json);
      break;
    case "enum":
      readEnumField(msg, field, json, ctx);
      break;
    case "message":
      readMessageField2(msg, field, json, ctx);
      break;
    case "list":
      readListField2(msg.get(field), json, ctx);
      break;
    case "map":
      readMapField(msg.get(field), json, ctx);
      break;
  }
}
function readListOrMapItem(field, json, ctx) {
  if (field.scalar && json !== null) {
    return scalarFromJson(field, json);
  }
  if (field.message && !isResetSentinelNullValue(field, json)) {
    const msgValue = reflect(field.message);
    readMessage2(msgValue, json, ctx);
    return msgValue;
  }
  if (field.enum && !isResetSentinelNullValue(field, json)) {
    return readEnum(field.enum, json, ctx.ignoreUnknownFields);
  }
  throw new FieldError(field, `${field.fieldKind === "list" ? "list item" : "map value"} must not be null`);
}
function readMapField(map, json, ctx) {
  if (json === null) {
    return;
  }
  const field = map.field();
  if (typeof json != "object" || Array.isArray(json)) {
    throw new FieldError(field, "expected object, got " + formatVal(json));
  }
  const seen = /* @__PURE__ */ new Set();
  for (const [jsonMapKey, jsonMapValue] of Object.entries(json)) {
    const key = mapKeyFromJson(field.mapKey, jsonMapKey);
    if (seen.has(key)) {
      throw new FieldError(field, `duplicate map key "${jsonMapKey}"`);
    }
    seen.add(key);
    const value = readListOrMapItem(field, jsonMapValue, ctx);
    if (value !== tokenIgnoredUnknownEnum) {
      map.set(key, value);
    }
  }
}
function readListField2(list, json, ctx) {
  if (json === null) {
    return;
  }
  const field = list.field();
  if (!Array.isArray(json)) {
    throw new FieldError(field, "expected Array, got " + formatVal(json));
  }
  for (const jsonItem of json) {
    const value = readListOrMapItem(field, jsonItem, ctx);
    if (value !== tokenIgnoredUnknownEnum) {
      list.add(value);
    }
  }
}
function readMessageField2(msg, field, json, ctx) {
  if (isResetSentinelNullValue(field, json)) {
    msg.clear(field);
    return;
  }
  const msgValue = msg.isSet(field) ? msg.get(field) : reflect(field.message);
  readMessage2(msgValue, json, ctx);
  msg.set(field, msgValue);
}
function readEnumField(msg, field, json, ctx) {
  if (isResetSentinelNullValue(field, json)) {
    msg.clear(field);
    return;
  }
  const enumValue = readEnum(field.enum, json, ctx.ignoreUnknownFields);
  if (enumValue !== tokenIgnoredUnknownEnum) {
    msg.set(field, enumValue);
  }
}
function readScalarField(msg, field, json) {
  if (json === null) {
    msg.clear(field);
  } else {
    msg.set(field, scalarFromJson(field, json));
  }
}
function isResetSentinelNullValue(field, json) {
  var _a, _b;
  return json === null && ((_a = field.message) === null || _a === void 0 ? void 0 : _a.typeName) != "google.protobuf.Value" && ((_b = field.enum) === null || _b === void 0 ? void 0 : _b.typeName) != "google.protobuf.NullValue";
}
var tokenIgnoredUnknownEnum = Symbol();
function readEnum(desc, json, ignoreUnknownFields) {
  if (json === null) {
    return desc.values[0].number;
  }
  switch (typeof json) {
    case "number":
      if (Number.isInteger(json)) {
        return json;
      }
      break;
    case "string":
      const value = desc.values.find((ev) => ev.name === json);
      if (value !== void 0) {
        return value.number;
      }
      if (ignoreUnknownFields) {
        return tokenIgnoredUnknownEnum;
      }
      break;
  }
  throw new Error(`cannot decode ${desc} from JSON: ${formatVal(json)}`);
}
function scalarFromJson(field, json) {
  switch (field.scalar) {
    // float, double: JSON value will be a number or one of the special string values "NaN", "Infinity", and "-Infinity".
    // Either numbers or strings are accepted. Exponent notation is also accepted.
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      if (json === "NaN")
        return NaN;
      if (json === "Infinity")
        return Number.POSITIVE_INFINITY;
      if (json === "-Infinity")
        return Number.NEGATIVE_INFINITY;
      if (typeof json == "number") {
        if (Number.isNaN(json)) {
          throw new FieldError(field, "unexpected NaN number");
        }
        if (!Number.isFinite(json)) {
          throw new FieldError(field, "unexpected infinite number");
        }
        break;
      }
      if (typeof json == "string") {
        if (json === "") {
          break;
        }
        if (json.trim().length !== json.length) {
          break;
        }
        const float = Number(json);
        if (!Number.isFinite(float)) {
          break;
        }
        return float;
      }
      break;
    // int32, fixed32, uint32: JSON value will be a decimal number. Either numbers or strings are accepted.
    case ScalarType.INT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
    case ScalarType.SINT32:
    case ScalarType.UINT32:
      return int32FromJson(json);
    // bytes: JSON value will be the data encoded as a string using standard base64 encoding with paddings.
    // Either standard or URL-safe base64 encoding with/without paddings are accepted.
    case ScalarType.BYTES:
      if (typeof json == "string") {
        if (json === "") {
          return new Uint8Array(0);
        }
        try {
          return base64Decode(json);
        } catch (e) {
          const message = e instanceof Error ? e.message : String(e);
          throw new FieldError(field, message);
        }
      }
      break;
  }
  return json;
}
function mapKeyFromJson(type, jsonString) {
  switch (type) {
    case ScalarType.BOOL:
      switch (jsonString) {
        case "true":
          return true;
        case "false":
          return false;
      }
      return jsonString;
    case ScalarType.INT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT32:
    case ScalarType.SFIXED32:
    case ScalarType.SINT32:
      return int32FromJson(jsonString);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return /^-?0+$/.test(jsonString) ? "0" : jsonString.replace(/^(-?)0+(?=\d)/, "$1");
    default:
      return jsonString;
  }
}
function int32FromJson(json) {
  if (typeof json == "string") {
    if (json === "") {
      return json;
    }
    if (json.trim().length !== json.length) {
      return json;
    }
    const num = Number(json);
    if (Number.isNaN(num)) {
      return json;
    }
    return num;
  }
  return json;
}
function parseJsonString(jsonString, typeName) {
  let json;
  try {
    json = JSON.parse(jsonString);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(
      `cannot decode message ${typeName} from JSON: ${message}`,
      // @ts-expect-error we use the ES2022 error CTOR option "cause" for better stack traces
      { cause: e }
    );
  }
  checkDuplicateKeys(jsonString, typeName);
  return json;
}
function checkDuplicateKeys(jsonString, typeName) {
  const stack = [];
  let expectKey = false;
  let i = 0;
  while (i < jsonString.length) {
    switch (jsonString[i]) {
      case "{":
        stack.push(/* @__PURE__ */ new Set());
        expectKey = true;
        i++;
        break;
      case "[":
        stack.push(null);
        expectKey = false;
        i++;
        break;
      case "}":
      case "]":
        stack.pop();
        expectKey = false;
        i++;
        break;
      case ",":
        expectKey = stack[stack.length - 1] != null;
        i++;
        break;
      case ":":
        expectKey = false;
        i++;
        break;
      case '"': {
        const open = i++;
        let escaped = false;
        while (i < jsonString.length) {
          if (jsonString[i] == "\\") {
            escaped = true;
            i += 2;
            continue;
          }
          if (jsonString[i] == '"') {
            break;
          }
          i++;
        }
        const close = i++;
        const seen = stack[stack.length - 1];
        if (expectKey && seen) {
          const name = escaped ? JSON.parse(jsonString.substring(open, close + 1)) : jsonString.substring(open + 1, close);
          if (seen.has(name)) {
            throw new Error(`cannot decode message ${typeName} from JSON: duplicate object key "${name}"`);
          }
          seen.add(name);
        }
        expectKey = false;
        break;
      }
      default:
        i++;
        break;
    }
  }
}
function tryWktFromJson(msg, jsonValue, ctx) {
  if (!msg.desc.typeName.startsWith("google.protobuf.")) {
    return false;
  }
  switch (msg.desc.typeName) {
    case "google.protobuf.Any":
      anyFromJson(msg.message, jsonValue, ctx);
      return true;
    case "google.protobuf.Timestamp":
      timestampFromJson(msg.message, jsonValue);
      return true;
    case "google.protobuf.Duration":
      durationFromJson(msg.message, jsonValue);
      return true;
    case "google.protobuf.FieldMask":
      fieldMaskFromJson(msg.message, jsonValue);
      return true;
    case "google.protobuf.Struct":
      structFromJson(msg.message, jsonValue, ctx);
      return true;
    case "google.protobuf.Value":
      valueFromJson(msg.message, jsonValue, ctx);
      return true;
    case "google.protobuf.ListValue":
      listValueFromJson(msg.message, jsonValue, ctx);
      return true;
    default:
      if (isWrapperDesc(msg.desc)) {
        const valueField = msg.desc.fields[0];
        if (jsonValue === null) {
          msg.clear(valueField);
        } else {
          msg.set(valueField, scalarFromJson(valueField, jsonValue));
        }
        return true;
      }
      return false;
  }
}
function anyFromJson(any, json, ctx) {
  var _a;
  if (json === null || Array.isArray(json) || typeof json != "object") {
    throw new Error(`cannot decode message ${any.$typeName} from JSON: expected object but got ${formatVal(json)}`);
  }
  if (Object.keys(json).length == 0) {
    return;
  }
  const typeUrl = json["@type"];
  if (typeof typeUrl != "string" || typeUrl == "") {
    throw new Error(`cannot decode message ${any.$typeName} from JSON: "@type" is empty`);
  }
  const typeName = typeUrl.includes("/") ? typeUrl.substring(typeUrl.lastIndexOf("/") + 1) : typeUrl;
  if (!typeName.length) {
    throw new Error(`cannot decode message ${any.$typeName} from JSON: "@type" is invalid`);
  }
  const desc = (_a = ctx.registry) === null || _a === void 0 ? void 0 : _a.getMessage(typeName);
  if (!desc) {
    throw new Error(`cannot decode message ${any.$typeName} from JSON: ${typeUrl} is not in the type registry`);
  }
  const msg = reflect(desc);
  if (hasCustomJsonRepresentation(desc) && Object.prototype.hasOwnProperty.call(json, "value")) {
    const value = json.value;
    readMessage2(msg, value, ctx);
  } else {
    const copy = Object.assign({}, json);
    delete copy["@type"];
    readMessage2(msg, copy, ctx);
  }
  anyPack(msg.desc, msg.message, any);
}
function timestampFromJson(timestamp, json) {
  if (typeof json !== "string") {
    throw new Error(`cannot decode message ${timestamp.$typeName} from JSON: ${formatVal(json)}`);
  }
  const matches = json.match(/^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:Z|([+-][0-9][0-9]:[0-9][0-9]))$/);
  if (!matches) {
    throw new Error(`cannot decode message ${timestamp.$typeName} from JSON: invalid RFC 3339 string`);
  }
  const ms = Date.parse(
    // biome-ignore format: want this to read well
    matches[1] + "-" + matches[2] + "-" + matches[3] + "T" + matches[4] + ":" + matches[5] + ":" + matches[6] + (matches[8] ? matches[8] : "Z")
  );
  if (Number.isNaN(ms)) {
    throw new Error(`cannot decode message ${timestamp.$typeName} from JSON: invalid RFC 3339 string`);
  }
  if (ms < Date.parse("0001-01-01T00:00:00Z") || ms > Date.parse("9999-12-31T23:59:59Z")) {
    throw new Error(`cannot decode message ${timestamp.$typeName} from JSON: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z inclusive`);
  }
  timestamp.seconds = protoInt64.parse(ms / 1e3);
  timestamp.nanos = 0;
  if (matches[7]) {
    timestamp.nanos = parseInt("1" + matches[7] + "0".repeat(9 - matches[7].length)) - 1e9;
  }
}
function durationFromJson(duration, json) {
  if (typeof json !== "string") {
    throw new Error(`cannot decode message ${duration.$typeName} from JSON: ${formatVal(json)}`);
  }
  const match = json.match(/^(-?[0-9]+)(?:\.([0-9]+))?s/);
  if (match === null) {
    throw new Error(`cannot decode message ${duration.$typeName} from JSON: ${formatVal(json)}`);
  }
  const longSeconds = Number(match[1]);
  if (longSeconds > 315576e6 || longSeconds < -315576e6) {
    throw new Error(`cannot decode message ${duration.$typeName} from JSON: ${formatVal(json)}`);
  }
  duration.seconds = protoInt64.parse(longSeconds);
  if (typeof match[2] !== "string") {
    return;
  }
  const nanosStr = match[2] + "0".repeat(9 - match[2].length);
  duration.nanos = parseInt(nanosStr);
  if (longSeconds < 0 || Object.is(longSeconds, -0)) {
    duration.nanos = -duration.nanos;
  }
}
function fieldMaskFromJson(fieldMask, json) {
  if (typeof json !== "string") {
    throw new Error(`cannot decode message ${fieldMask.$typeName} from JSON: ${formatVal(json)}`);
  }
  if (json === "") {
    return;
  }
  fieldMask.paths = json.split(",").map((path) => {
    if (path.includes("_")) {
      throw new Error(`cannot decode message ${fieldMask.$typeName} from JSON: path names must be lowerCamelCase`);
    }
    return protoSnakeCase(path);
  });
}
function structFromJson(struct, json, ctx) {
  if (typeof json != "object" || json == null || Array.isArray(json)) {
    throw new Error(`cannot decode message ${struct.$typeName} from JSON ${formatVal(json)}`);
  }
  for (const [k, v] of Object.entries(json)) {
    const parsedV = create(ValueSchema);
    valueFromJson(parsedV, v, ctx);
    struct.fields[k] = parsedV;
  }
}
function valueFromJson(value, json, ctx) {
  if (++ctx.depth > ctx.recursionLimit) {
    throw new Error(`cannot decode ${value.$typeName} from JSON: maximum recursion depth of ${ctx.recursionLimit} reached`);
  }
  switch (typeof json) {
    case "number":
      value.kind = { case: "numberValue", value: json };
      break;
    case "string":
      value.kind = { case: "stringValue", value: json };
      break;
    case "boolean":
      value.kind = { case: "boolValue", value: json };
      break;
    case "object":
      if (json === null) {
        value.kind = { case: "nullValue", value: NullValue.NULL_VALUE };
      } else if (Array.isArray(json)) {
        const listValue = create(ListValueSchema);
        listValueFromJson(listValue, json, ctx);
        value.kind = { case: "listValue", value: listValue };
      } else {
        const struct = create(StructSchema);
        structFromJson(struct, json, ctx);
        value.kind = { case: "structValue", value: struct };
      }
      break;
    default:
      throw new Error(`cannot decode message ${value.$typeName} from JSON ${formatVal(json)}`);
  }
  ctx.depth--;
  return value;
}
function listValueFromJson(listValue, json, ctx) {
  if (!Array.isArray(json)) {
    throw new Error(`cannot decode message ${listValue.$typeName} from JSON ${formatVal(json)}`);
  }
  for (const e of json) {
    const value = create(ValueSchema);
    valueFromJson(value, e, ctx);
    listValue.values.push(value);
  }
}

// node_modules/@bufbuild/protobuf/dist/esm/codegenv2/service.js
function serviceDesc(file, path, ...paths) {
  if (paths.length > 0) {
    throw new Error();
  }
  return file.services[path];
}

// src/gen/factmemory/v1/factmemory_pb.ts
var file_factmemory_v1_factmemory = /* @__PURE__ */ fileDesc("Ch5mYWN0bWVtb3J5L3YxL2ZhY3RtZW1vcnkucHJvdG8SDWZhY3RtZW1vcnkudjEieAoLQ2hhdE1lc3NhZ2USCgoCaWQYASABKAkSEQoJZW50aXR5X2lkGAIgASgJEgwKBG5hbWUYAyABKAkSDAoEdGV4dBgEIAEoCRIuCgpjcmVhdGVkX2F0GAUgASgLMhouZ29vZ2xlLnByb3RvYnVmLlRpbWVzdGFtcCInCgpSb29tRW50aXR5EgoKAmlkGAEgASgJEg0KBW5hbWVzGAIgAygJIvwDCgRGYWN0EgoKAmlkGAEgASgJEhAKCGFnZW50X2lkGAIgASgJEhEKCWVudGl0eV9pZBgDIAEoCRIhCgRraW5kGAQgASgOMhMuZmFjdG1lbW9yeS52MS5LaW5kEhAKCGNhdGVnb3J5GAUgASgJEg0KBWNsYWltGAYgASgJEjIKEXN0cnVjdHVyZWRfZmllbGRzGAcgASgLMhcuZ29vZ2xlLnByb3RvYnVmLlN0cnVjdBISCgpjb25maWRlbmNlGAggASgBEhwKFGV2aWRlbmNlX21lc3NhZ2VfaWRzGAkgAygJEj4KE3ZlcmlmaWNhdGlvbl9zdGF0dXMYCiABKA4yIS5mYWN0bWVtb3J5LnYxLlZlcmlmaWNhdGlvblN0YXR1cxIuCgpjcmVhdGVkX2F0GAsgASgLMhouZ29vZ2xlLnByb3RvYnVmLlRpbWVzdGFtcBI1ChFsYXN0X2NvbmZpcm1lZF9hdBgMIAEoCzIaLmdvb2dsZS5wcm90b2J1Zi5UaW1lc3RhbXASLAoIdmFsaWRfYXQYDSABKAsyGi5nb29nbGUucHJvdG9idWYuVGltZXN0YW1wEhcKD3ByZXZpb3VzX2NsYWltcxgOIAMoCRITCgtkaXNwdXRlZF9ieRgPIAEoCRIWCg5ldmlkZW5jZV9jb3VudBgQIAEoDSKGAwoPRXZhbHVhdGVSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRIPCgdyb29tX2lkGAMgASgJEisKB21lc3NhZ2UYBCABKAsyGi5mYWN0bWVtb3J5LnYxLkNoYXRNZXNzYWdlEjMKD3JlY2VudF9tZXNzYWdlcxgFIAMoCzIaLmZhY3RtZW1vcnkudjEuQ2hhdE1lc3NhZ2USIgoFaXRlbXMYBiADKA4yEy5mYWN0bWVtb3J5LnYxLkl0ZW0SMAoNcm9vbV9lbnRpdGllcxgHIAMoCzIZLmZhY3RtZW1vcnkudjEuUm9vbUVudGl0eRIzCg9hZ2VudF9yZXNwb25zZXMYCCADKAsyGi5mYWN0bWVtb3J5LnYxLkNoYXRNZXNzYWdlEhMKC2RpZF9yZXNwb25kGAkgASgIEhAKCHdvcmxkX2lkGAogASgJEhUKDXNwZWFrZXJfcm9sZXMYCyADKAkSEgoKd29ybGRfbmFtZRgMIAEoCSKMAwoURXZhbHVhdGVCYXRjaFJlcXVlc3QSEAoIYWdlbnRfaWQYASABKAkSEQoJZW50aXR5X2lkGAIgASgJEg8KB3Jvb21faWQYAyABKAkSLAoIbWVzc2FnZXMYBCADKAsyGi5mYWN0bWVtb3J5LnYxLkNoYXRNZXNzYWdlEjMKD3JlY2VudF9tZXNzYWdlcxgFIAMoCzIaLmZhY3RtZW1vcnkudjEuQ2hhdE1lc3NhZ2USIgoFaXRlbXMYBiADKA4yEy5mYWN0bWVtb3J5LnYxLkl0ZW0SMAoNcm9vbV9lbnRpdGllcxgHIAMoCzIZLmZhY3RtZW1vcnkudjEuUm9vbUVudGl0eRIzCg9hZ2VudF9yZXNwb25zZXMYCCADKAsyGi5mYWN0bWVtb3J5LnYxLkNoYXRNZXNzYWdlEhMKC2RpZF9yZXNwb25kGAkgASgIEhAKCHdvcmxkX2lkGAogASgJEhUKDXNwZWFrZXJfcm9sZXMYCyADKAkSEgoKd29ybGRfbmFtZRgMIAEoCSJuChVFdmFsdWF0ZUJhdGNoUmVzcG9uc2USMAoHcmVzdWx0cxgBIAMoCzIfLmZhY3RtZW1vcnkudjEuRXZhbHVhdGVSZXNwb25zZRIjCgV1c2FnZRgCIAEoCzIULmZhY3RtZW1vcnkudjEuVXNhZ2Ui9QEKCUFwcGxpZWRPcBIhCgJvcBgBIAEoDjIVLmZhY3RtZW1vcnkudjEuT3BUeXBlEiEKBGZhY3QYAiABKAsyEy5mYWN0bWVtb3J5LnYxLkZhY3QSFAoMZGVkdXBsaWNhdGVkGAMgASgIEg8KB2RlbGV0ZWQYBCABKAgSFAoMY2FuZGlkYXRlX2lkGAUgASgJEhAKCHJlamVjdGVkGAYgASgIEg4KBnJlYXNvbhgHIAEoCRIOCgZoYW5kbGUYCCABKAkSGAoQZHVwbGljYXRlX2hhbmRsZRgJIAEoCRIZChFkdXBsaWNhdGVfZmFjdF9pZBgKIAEoCSJrCgxSZWxhdGlvbnNoaXASGAoQc291cmNlX2VudGl0eV9pZBgBIAEoCRIYChB0YXJnZXRfZW50aXR5X2lkGAIgASgJEgwKBHRhZ3MYAyADKAkSGQoRaW50ZXJhY3Rpb25fY291bnQYBCABKAUiUwoISWRlbnRpdHkSEQoJZW50aXR5X2lkGAEgASgJEhAKCHBsYXRmb3JtGAIgASgJEg4KBmhhbmRsZRgDIAEoCRISCgpjb25maWRlbmNlGAQgASgBIjMKDlN1Y2Nlc3NWZXJkaWN0EhEKCWNvbXBsZXRlZBgBIAEoCBIOCgZyZWFzb24YAiABKAkiTAoFVXNhZ2USEQoJbGxtX2NhbGxzGAEgASgFEhUKDXByb21wdF90b2tlbnMYAiABKAUSGQoRY29tcGxldGlvbl90b2tlbnMYAyABKAUi3gIKEEV2YWx1YXRlUmVzcG9uc2USJQoDb3BzGAEgAygLMhguZmFjdG1lbW9yeS52MS5BcHBsaWVkT3ASMgoNcmVsYXRpb25zaGlwcxgCIAMoCzIbLmZhY3RtZW1vcnkudjEuUmVsYXRpb25zaGlwEisKCmlkZW50aXRpZXMYAyADKAsyFy5mYWN0bWVtb3J5LnYxLklkZW50aXR5Ei4KB3N1Y2Nlc3MYBCABKAsyHS5mYWN0bWVtb3J5LnYxLlN1Y2Nlc3NWZXJkaWN0EiMKBXVzYWdlGAUgASgLMhQuZmFjdG1lbW9yeS52MS5Vc2FnZRIQCghyZXBsYXllZBgGIAEoCBItCgdkcm9wcGVkGAcgASgLMhwuZmFjdG1lbW9yeS52MS5Ecm9wcGVkQ291bnRzEiwKDm9yaWdpbmFsX3VzYWdlGAggASgLMhQuZmFjdG1lbW9yeS52MS5Vc2FnZSKlAgoOUHJvdmlkZVJlcXVlc3QSEAoIYWdlbnRfaWQYASABKAkSEQoJZW50aXR5X2lkGAIgASgJEg8KB3Jvb21faWQYAyABKAkSMwoPcmVjZW50X21lc3NhZ2VzGAQgAygLMhouZmFjdG1lbW9yeS52MS5DaGF0TWVzc2FnZRIVCg1kdXJhYmxlX2xpbWl0GAUgASgFEhUKDWN1cnJlbnRfbGltaXQYBiABKAUSFAoMc3ViamVjdF9uYW1lGAcgASgJEicKA25vdxgIIAEoCzIaLmdvb2dsZS5wcm90b2J1Zi5UaW1lc3RhbXASEAoId29ybGRfaWQYCSABKAkSFAoMc2hhcmVkX2xpbWl0GAogASgFEhMKC3RvdGFsX2xpbWl0GAsgASgFImYKClNjb3JlZEZhY3QSIQoEZmFjdBgBIAEoCzITLmZhY3RtZW1vcnkudjEuRmFjdBIRCglyZWxldmFuY2UYAiABKAESEwoLdGltZV93ZWlnaHQYAyABKAESDQoFc2NvcmUYBCABKAEizQEKD1Byb3ZpZGVSZXNwb25zZRIMCgR0ZXh0GAEgASgJEioKB2R1cmFibGUYAiADKAsyGS5mYWN0bWVtb3J5LnYxLlNjb3JlZEZhY3QSKgoHY3VycmVudBgDIAMoCzIZLmZhY3RtZW1vcnkudjEuU2NvcmVkRmFjdBIQCghkZWdyYWRlZBgEIAEoCBIXCg9kZWdyYWRlZF9yZWFzb24YBSABKAkSKQoGc2hhcmVkGAYgAygLMhkuZmFjdG1lbW9yeS52MS5TY29yZWRGYWN0IoEBChBMaXN0RmFjdHNSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRIhCgRraW5kGAMgASgOMhMuZmFjdG1lbW9yeS52MS5LaW5kEhEKCXBhZ2Vfc2l6ZRgEIAEoBRISCgpwYWdlX3Rva2VuGAUgASgJIlAKEUxpc3RGYWN0c1Jlc3BvbnNlEiIKBWZhY3RzGAEgAygLMhMuZmFjdG1lbW9yeS52MS5GYWN0EhcKD25leHRfcGFnZV90b2tlbhgCIAEoCSKiAwoJQ2FuZGlkYXRlEgoKAmlkGAEgASgJEhAKCGFnZW50X2lkGAIgASgJEhEKCWVudGl0eV9pZBgDIAEoCRIhCgRmYWN0GAQgASgLMhMuZmFjdG1lbW9yeS52MS5GYWN0EhYKDnByb3Bvc2VkX2NsYWltGAUgASgJEg4KBnJlYXNvbhgGIAEoCRIOCgZzb3VyY2UYByABKAkSGwoTZXZpZGVuY2VfbWVzc2FnZV9pZBgIIAEoCRIuCgZzdGF0dXMYCSABKA4yHi5mYWN0bWVtb3J5LnYxLkNhbmRpZGF0ZVN0YXR1cxIuCgpjcmVhdGVkX2F0GAogASgLMhouZ29vZ2xlLnByb3RvYnVmLlRpbWVzdGFtcBIvCgtyZXNvbHZlZF9hdBgLIAEoCzIaLmdvb2dsZS5wcm90b2J1Zi5UaW1lc3RhbXASFwoPcmVsYXRlZF9mYWN0X2lkGAwgASgJEi0KCnJlc29sdXRpb24YDSABKA4yGS5mYWN0bWVtb3J5LnYxLlJlc29sdXRpb24SEwoLcmVzb2x2ZWRfYnkYDiABKAki1wEKFUxpc3RDYW5kaWRhdGVzUmVxdWVzdBIQCghhZ2VudF9pZBgBIAEoCRIRCgllbnRpdHlfaWQYAiABKAkSLgoGc3RhdHVzGAMgASgOMh4uZmFjdG1lbW9yeS52MS5DYW5kaWRhdGVTdGF0dXMSLgoGc291cmNlGAQgASgOMh4uZmFjdG1lbW9yeS52MS5DYW5kaWRhdGVTb3VyY2USEQoJcGFnZV9zaXplGAUgASgFEhIKCnBhZ2VfdG9rZW4YBiABKAkSEgoKYW55X3N0YXR1cxgHIAEoCCJfChZMaXN0Q2FuZGlkYXRlc1Jlc3BvbnNlEiwKCmNhbmRpZGF0ZXMYASADKAsyGC5mYWN0bWVtb3J5LnYxLkNhbmRpZGF0ZRIXCg9uZXh0X3BhZ2VfdG9rZW4YAiABKAki7AEKF1Jlc29sdmVDYW5kaWRhdGVSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRIUCgxjYW5kaWRhdGVfaWQYAyABKAkSKQoIZGVjaXNpb24YBCABKA4yFy5mYWN0bWVtb3J5LnYxLkRlY2lzaW9uEi0KCnJlc29sdXRpb24YBSABKA4yGS5mYWN0bWVtb3J5LnYxLlJlc29sdXRpb24SKAoEY2hhdBgGIAEoCzIaLmZhY3RtZW1vcnkudjEuQ2hhdFJlcXVlc3QSEgoKYWdlbnRfd2lkZRgHIAEoCCJqChhSZXNvbHZlQ2FuZGlkYXRlUmVzcG9uc2USKwoJY2FuZGlkYXRlGAEgASgLMhguZmFjdG1lbW9yeS52MS5DYW5kaWRhdGUSIQoEZmFjdBgCIAEoCzITLmZhY3RtZW1vcnkudjEuRmFjdCJkChNGb3JnZXRFbnRpdHlSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRIoCgRjaGF0GAMgASgLMhouZmFjdG1lbW9yeS52MS5DaGF0UmVxdWVzdCI0CgtDaGF0UmVxdWVzdBISCgptZXNzYWdlX2lkGAEgASgJEhEKCWNvbmZpcm1lZBgCIAEoCCJ9ChBGaW5kRmFjdHNSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRIMCgR0ZXh0GAMgASgJEg0KBWxpbWl0GAQgASgFEicKA25vdxgFIAEoCzIaLmdvb2dsZS5wcm90b2J1Zi5UaW1lc3RhbXAiaAoRRmluZEZhY3RzUmVzcG9uc2USKgoHbWF0Y2hlcxgBIAMoCzIZLmZhY3RtZW1vcnkudjEuU2NvcmVkRmFjdBInCgRuZWFyGAIgAygLMhkuZmFjdG1lbW9yeS52MS5TY29yZWRGYWN0IqEBChRGb3JnZXRFbnRpdHlSZXNwb25zZRIVCg1mYWN0c19kZWxldGVkGAEgASgFEhoKEmNhbmRpZGF0ZXNfZGVsZXRlZBgCIAEoBRIdChVyZWxhdGlvbnNoaXBzX2RlbGV0ZWQYAyABKAUSGgoSaWRlbnRpdGllc19kZWxldGVkGAQgASgFEhsKE2V2YWx1YXRpb25zX2RlbGV0ZWQYBSABKAUiTgoTRXhwb3J0RW50aXR5UmVxdWVzdBIQCghhZ2VudF9pZBgBIAEoCRIRCgllbnRpdHlfaWQYAiABKAkSEgoKcGFnZV90b2tlbhgDIAEoCSI9ChRFeHBvcnRFbnRpdHlSZXNwb25zZRIMCgRqc29uGAEgASgJEhcKD25leHRfcGFnZV90b2tlbhgCIAEoCSJHCg1Ecm9wcGVkQ291bnRzEgsKA29wcxgBIAEoDRIVCg1yZWxhdGlvbnNoaXBzGAIgASgNEhIKCmlkZW50aXRpZXMYAyABKA0i8QEKDEhpc3RvcnlFbnRyeRIKCgJpZBgBIAEoCRIPCgdmYWN0X2lkGAIgASgJEiYKAmF0GAMgASgLMhouZ29vZ2xlLnByb3RvYnVmLlRpbWVzdGFtcBIsCgZhY3Rpb24YBCABKA4yHC5mYWN0bWVtb3J5LnYxLkhpc3RvcnlBY3Rpb24SDQoFYWN0b3IYBSABKAkSDgoGcmVhc29uGAYgASgJEicKBmJlZm9yZRgHIAEoCzIXLmdvb2dsZS5wcm90b2J1Zi5TdHJ1Y3QSJgoFYWZ0ZXIYCCABKAsyFy5nb29nbGUucHJvdG9idWYuU3RydWN0ItUBCg5BZGRGYWN0UmVxdWVzdBIQCghhZ2VudF9pZBgBIAEoCRIRCgllbnRpdHlfaWQYAiABKAkSIQoEa2luZBgDIAEoDjITLmZhY3RtZW1vcnkudjEuS2luZBIQCghjYXRlZ29yeRgEIAEoCRINCgVjbGFpbRgFIAEoCRIXCgpjb25maWRlbmNlGAYgASgBSACIAQESMgoRc3RydWN0dXJlZF9maWVsZHMYByABKAsyFy5nb29nbGUucHJvdG9idWYuU3RydWN0Qg0KC19jb25maWRlbmNlIjQKD0FkZEZhY3RSZXNwb25zZRIhCgRmYWN0GAEgASgLMhMuZmFjdG1lbW9yeS52MS5GYWN0IsACChFVcGRhdGVGYWN0UmVxdWVzdBIQCghhZ2VudF9pZBgBIAEoCRIRCgllbnRpdHlfaWQYAiABKAkSDwoHZmFjdF9pZBgDIAEoCRISCgVjbGFpbRgEIAEoCUgAiAEBEhUKCGNhdGVnb3J5GAUgASgJSAGIAQESIQoEa2luZBgGIAEoDjITLmZhY3RtZW1vcnkudjEuS2luZBIXCgpjb25maWRlbmNlGAcgASgBSAKIAQESPgoTdmVyaWZpY2F0aW9uX3N0YXR1cxgIIAEoDjIhLmZhY3RtZW1vcnkudjEuVmVyaWZpY2F0aW9uU3RhdHVzEigKBGNoYXQYCSABKAsyGi5mYWN0bWVtb3J5LnYxLkNoYXRSZXF1ZXN0QggKBl9jbGFpbUILCglfY2F0ZWdvcnlCDQoLX2NvbmZpZGVuY2UiNwoSVXBkYXRlRmFjdFJlc3BvbnNlEiEKBGZhY3QYASABKAsyEy5mYWN0bWVtb3J5LnYxLkZhY3QicwoRRGVsZXRlRmFjdFJlcXVlc3QSEAoIYWdlbnRfaWQYASABKAkSEQoJZW50aXR5X2lkGAIgASgJEg8KB2ZhY3RfaWQYAyABKAkSKAoEY2hhdBgEIAEoCzIaLmZhY3RtZW1vcnkudjEuQ2hhdFJlcXVlc3QiFAoSRGVsZXRlRmFjdFJlc3BvbnNlIkYKDkdldEZhY3RSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRIPCgdmYWN0X2lkGAMgASgJImIKD0dldEZhY3RSZXNwb25zZRIhCgRmYWN0GAEgASgLMhMuZmFjdG1lbW9yeS52MS5GYWN0EiwKB2hpc3RvcnkYAiADKAsyGy5mYWN0bWVtb3J5LnYxLkhpc3RvcnlFbnRyeSJdChNMaXN0RW50aXRpZXNSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEg0KBXF1ZXJ5GAIgASgJEhEKCXBhZ2Vfc2l6ZRgDIAEoBRISCgpwYWdlX3Rva2VuGAQgASgJIvwBCg1FbnRpdHlTdW1tYXJ5EhEKCWVudGl0eV9pZBgBIAEoCRIMCgRuYW1lGAIgASgJEhUKDWR1cmFibGVfZmFjdHMYAyABKAUSFQoNY3VycmVudF9mYWN0cxgEIAEoBRIaChJwZW5kaW5nX2NhbmRpZGF0ZXMYBSABKAUSMQoNbGFzdF9hY3Rpdml0eRgGIAEoCzIaLmdvb2dsZS5wcm90b2J1Zi5UaW1lc3RhbXASJwoEa2luZBgHIAEoDjIZLmZhY3RtZW1vcnkudjEuRW50aXR5S2luZBIQCgh3b3JsZF9pZBgIIAEoCRISCgp3b3JsZF9uYW1lGAkgASgJIl8KFExpc3RFbnRpdGllc1Jlc3BvbnNlEi4KCGVudGl0aWVzGAEgAygLMhwuZmFjdG1lbW9yeS52MS5FbnRpdHlTdW1tYXJ5EhcKD25leHRfcGFnZV90b2tlbhgCIAEoCSIuCg1Qcm9tcHRNZXNzYWdlEgwKBHJvbGUYASABKAkSDwoHY29udGVudBgCIAEoCSKNAQoYUHJlcGFyZUV2YWx1YXRpb25SZXF1ZXN0EjAKBnNpbmdsZRgBIAEoCzIeLmZhY3RtZW1vcnkudjEuRXZhbHVhdGVSZXF1ZXN0SAASNAoFYmF0Y2gYAiABKAsyIy5mYWN0bWVtb3J5LnYxLkV2YWx1YXRlQmF0Y2hSZXF1ZXN0SABCCQoHcmVxdWVzdCLlAQoZUHJlcGFyZUV2YWx1YXRpb25SZXNwb25zZRIOCgZ0aWNrZXQYASABKAkSLAoGcHJvbXB0GAIgAygLMhwuZmFjdG1lbW9yeS52MS5Qcm9tcHRNZXNzYWdlEhMKC2pzb25fc2NoZW1hGAMgASgJEhMKC3NjaGVtYV9uYW1lGAQgASgJEi4KCmV4cGlyZXNfYXQYBSABKAsyGi5nb29nbGUucHJvdG9idWYuVGltZXN0YW1wEjAKB3Jlc3VsdHMYBiADKAsyHy5mYWN0bWVtb3J5LnYxLkV2YWx1YXRlUmVzcG9uc2UihAEKGUNvbXBsZXRlRXZhbHVhdGlvblJlcXVlc3QSEAoIYWdlbnRfaWQYASABKAkSEQoJZW50aXR5X2lkGAIgASgJEg4KBnRpY2tldBgDIAEoCRINCgVyZXBseRgEIAEoCRIjCgV1c2FnZRgFIAEoCzIULmZhY3RtZW1vcnkudjEuVXNhZ2UicwoaQ29tcGxldGVFdmFsdWF0aW9uUmVzcG9uc2USMAoHcmVzdWx0cxgBIAMoCzIfLmZhY3RtZW1vcnkudjEuRXZhbHVhdGVSZXNwb25zZRIjCgV1c2FnZRgCIAEoCzIULmZhY3RtZW1vcnkudjEuVXNhZ2UiYgoVRm9yZ2V0TWVzc2FnZXNSZXF1ZXN0EhAKCGFnZW50X2lkGAEgASgJEhEKCWVudGl0eV9pZBgCIAEoCRITCgttZXNzYWdlX2lkcxgDIAMoCRIPCgdyb29tX2lkGAQgASgJIn0KFkZvcmdldE1lc3NhZ2VzUmVzcG9uc2USGgoSbWVzc2FnZXNfZm9yZ290dGVuGAEgASgFEhUKDWZhY3RzX2RlbGV0ZWQYAiABKAUSFQoNZmFjdHNfdXBkYXRlZBgDIAEoBRIZChFjYW5kaWRhdGVzX2Nsb3NlZBgEIAEoBSI2ChRSZWdpc3RlckFnZW50UmVxdWVzdBIQCghhZ2VudF9pZBgBIAEoCRIMCgRuYW1lGAIgASgJIhcKFVJlZ2lzdGVyQWdlbnRSZXNwb25zZSJJChFMaXN0QWdlbnRzUmVxdWVzdBINCgVxdWVyeRgBIAEoCRIRCglwYWdlX3NpemUYAiABKAUSEgoKcGFnZV90b2tlbhgDIAEoCSKzAQoMQWdlbnRTdW1tYXJ5EhAKCGFnZW50X2lkGAEgASgJEgwKBG5hbWUYAiABKAkSEAoIZW50aXRpZXMYAyABKAUSDQoFZmFjdHMYBCABKAUSGgoScGVuZGluZ19jYW5kaWRhdGVzGAUgASgFEjEKDWxhc3RfYWN0aXZpdHkYBiABKAsyGi5nb29nbGUucHJvdG9idWYuVGltZXN0YW1wEhMKC2NvbW11bml0aWVzGAcgASgFIloKEkxpc3RBZ2VudHNSZXNwb25zZRIrCgZhZ2VudHMYASADKAsyGy5mYWN0bWVtb3J5LnYxLkFnZW50U3VtbWFyeRIXCg9uZXh0X3BhZ2VfdG9rZW4YAiABKAkiEgoQR2V0TGltaXRzUmVxdWVzdCKBAgoRR2V0TGltaXRzUmVzcG9uc2USFgoObWF4X3RleHRfY2hhcnMYASABKAUSFgoObWF4X25hbWVfY2hhcnMYAiABKAUSGwoTbWF4X3JlY2VudF9tZXNzYWdlcxgDIAEoBRIaChJtYXhfYmF0Y2hfbWVzc2FnZXMYBCABKAUSGQoRbWF4X3Jvb21fZW50aXRpZXMYBSABKAUSHAoUbWF4X25hbWVzX3Blcl9lbnRpdHkYBiABKAUSGQoRbWF4X3Byb3ZpZGVfbGltaXQYByABKAUSGQoRbWF4X3NwZWFrZXJfcm9sZXMYCCABKAUSFAoMbWF4X2lkX2NoYXJzGAkgASgFKmsKBEl0ZW0SFAoQSVRFTV9VTlNQRUNJRklFRBAAEg4KCklURU1fRkFDVFMQARIWChJJVEVNX1JFTEFUSU9OU0hJUFMQAhITCg9JVEVNX0lERU5USVRJRVMQAxIQCgxJVEVNX1NVQ0NFU1MQBCpACgRLaW5kEhQKEEtJTkRfVU5TUEVDSUZJRUQQABIQCgxLSU5EX0RVUkFCTEUQARIQCgxLSU5EX0NVUlJFTlQQAiqpAQoGT3BUeXBlEhcKE09QX1RZUEVfVU5TUEVDSUZJRUQQABIXChNPUF9UWVBFX0FERF9EVVJBQkxFEAESFwoTT1BfVFlQRV9BRERfQ1VSUkVOVBACEhYKEk9QX1RZUEVfU1RSRU5HVEhFThADEhEKDU9QX1RZUEVfREVDQVkQBBIWChJPUF9UWVBFX0NPTlRSQURJQ1QQBRIRCg1PUF9UWVBFX01FUkdFEAYqqQEKElZlcmlmaWNhdGlvblN0YXR1cxIjCh9WRVJJRklDQVRJT05fU1RBVFVTX1VOU1BFQ0lGSUVEEAASJQohVkVSSUZJQ0FUSU9OX1NUQVRVU19TRUxGX1JFUE9SVEVEEAESIQodVkVSSUZJQ0FUSU9OX1NUQVRVU19DT05GSVJNRUQQAhIkCiBWRVJJRklDQVRJT05fU1RBVFVTX0NPTlRSQURJQ1RFRBADKo8BCg9DYW5kaWRhdGVTdGF0dXMSIAocQ0FORElEQVRFX1NUQVRVU19VTlNQRUNJRklFRBAAEhwKGENBTkRJREFURV9TVEFUVVNfUEVORElORxABEh0KGUNBTkRJREFURV9TVEFUVVNfQUNDRVBURUQQAhIdChlDQU5ESURBVEVfU1RBVFVTX1JFSkVDVEVEEAMqTgoIRGVjaXNpb24SGAoUREVDSVNJT05fVU5TUEVDSUZJRUQQABITCg9ERUNJU0lPTl9BQ0NFUFQQARITCg9ERUNJU0lPTl9SRUpFQ1QQAiq4AQoKUmVzb2x1dGlvbhIaChZSRVNPTFVUSU9OX1VOU1BFQ0lGSUVEEAASFQoRUkVTT0xVVElPTl9BQ0NFUFQQARIVChFSRVNPTFVUSU9OX1JFSkVDVBACEhgKFFJFU09MVVRJT05fS0VFUF9CT1RIEAMSFwoTUkVTT0xVVElPTl9LRUVQX05FVxAEEhcKE1JFU09MVVRJT05fS0VFUF9PTEQQBRIUChBSRVNPTFVUSU9OX01FUkdFEAYqvgEKD0NhbmRpZGF0ZVNvdXJjZRIgChxDQU5ESURBVEVfU09VUkNFX1VOU1BFQ0lGSUVEEAASHwobQ0FORElEQVRFX1NPVVJDRV9DT05UUkFESUNUEAESIwofQ0FORElEQVRFX1NPVVJDRV9ERURVUF9DT05GTElDVBACEiAKHENBTkRJREFURV9TT1VSQ0VfREVDQVlfRkxPT1IQAxIhCh1DQU5ESURBVEVfU09VUkNFX1NIQVJFRF9DTEFJTRAEKsIDCg1IaXN0b3J5QWN0aW9uEh4KGkhJU1RPUllfQUNUSU9OX1VOU1BFQ0lGSUVEEAASGgoWSElTVE9SWV9BQ1RJT05fQ1JFQVRFRBABEh8KG0hJU1RPUllfQUNUSU9OX1NUUkVOR1RIRU5FRBACEhoKFkhJU1RPUllfQUNUSU9OX0RFQ0FZRUQQAxIfChtISVNUT1JZX0FDVElPTl9DT05UUkFESUNURUQQBBIZChVISVNUT1JZX0FDVElPTl9NRVJHRUQQBRIlCiFISVNUT1JZX0FDVElPTl9DQU5ESURBVEVfQUNDRVBURUQQBhIlCiFISVNUT1JZX0FDVElPTl9DQU5ESURBVEVfUkVKRUNURUQQBxIcChhISVNUT1JZX0FDVElPTl9LRVBUX0JPVEgQCBIZChVISVNUT1JZX0FDVElPTl9FRElURUQQCRIaChZISVNUT1JZX0FDVElPTl9ERUxFVEVEEAoSHwobSElTVE9SWV9BQ1RJT05fUkVDTEFTU0lGSUVEEAsSGwoXSElTVE9SWV9BQ1RJT05fSU1QT1JURUQQDBIbChdISVNUT1JZX0FDVElPTl9BUkNISVZFRBANKooBCgpFbnRpdHlLaW5kEhsKF0VOVElUWV9LSU5EX1VOU1BFQ0lGSUVEEAASFgoSRU5USVRZX0tJTkRfUEVSU09OEAESFQoRRU5USVRZX0tJTkRfV09STEQQAhIaChZFTlRJVFlfS0lORF9BR0VOVF9XSURFEAMSFAoQRU5USVRZX0tJTkRfSEVMRBAEMuANChFGYWN0TWVtb3J5U2VydmljZRJLCghFdmFsdWF0ZRIeLmZhY3RtZW1vcnkudjEuRXZhbHVhdGVSZXF1ZXN0Gh8uZmFjdG1lbW9yeS52MS5FdmFsdWF0ZVJlc3BvbnNlEloKDUV2YWx1YXRlQmF0Y2gSIy5mYWN0bWVtb3J5LnYxLkV2YWx1YXRlQmF0Y2hSZXF1ZXN0GiQuZmFjdG1lbW9yeS52MS5FdmFsdWF0ZUJhdGNoUmVzcG9uc2USSAoHUHJvdmlkZRIdLmZhY3RtZW1vcnkudjEuUHJvdmlkZVJlcXVlc3QaHi5mYWN0bWVtb3J5LnYxLlByb3ZpZGVSZXNwb25zZRJOCglMaXN0RmFjdHMSHy5mYWN0bWVtb3J5LnYxLkxpc3RGYWN0c1JlcXVlc3QaIC5mYWN0bWVtb3J5LnYxLkxpc3RGYWN0c1Jlc3BvbnNlEl0KDkxpc3RDYW5kaWRhdGVzEiQuZmFjdG1lbW9yeS52MS5MaXN0Q2FuZGlkYXRlc1JlcXVlc3QaJS5mYWN0bWVtb3J5LnYxLkxpc3RDYW5kaWRhdGVzUmVzcG9uc2USYwoQUmVzb2x2ZUNhbmRpZGF0ZRImLmZhY3RtZW1vcnkudjEuUmVzb2x2ZUNhbmRpZGF0ZVJlcXVlc3QaJy5mYWN0bWVtb3J5LnYxLlJlc29sdmVDYW5kaWRhdGVSZXNwb25zZRJXCgxGb3JnZXRFbnRpdHkSIi5mYWN0bWVtb3J5LnYxLkZvcmdldEVudGl0eVJlcXVlc3QaIy5mYWN0bWVtb3J5LnYxLkZvcmdldEVudGl0eVJlc3BvbnNlElcKDEV4cG9ydEVudGl0eRIiLmZhY3RtZW1vcnkudjEuRXhwb3J0RW50aXR5UmVxdWVzdBojLmZhY3RtZW1vcnkudjEuRXhwb3J0RW50aXR5UmVzcG9uc2USSAoHQWRkRmFjdBIdLmZhY3RtZW1vcnkudjEuQWRkRmFjdFJlcXVlc3QaHi5mYWN0bWVtb3J5LnYxLkFkZEZhY3RSZXNwb25zZRJRCgpVcGRhdGVGYWN0EiAuZmFjdG1lbW9yeS52MS5VcGRhdGVGYWN0UmVxdWVzdBohLmZhY3RtZW1vcnkudjEuVXBkYXRlRmFjdFJlc3BvbnNlElEKCkRlbGV0ZUZhY3QSIC5mYWN0bWVtb3J5LnYxLkRlbGV0ZUZhY3RSZXF1ZXN0GiEuZmFjdG1lbW9yeS52MS5EZWxldGVGYWN0UmVzcG9uc2USSAoHR2V0RmFjdBIdLmZhY3RtZW1vcnkudjEuR2V0RmFjdFJlcXVlc3QaHi5mYWN0bWVtb3J5LnYxLkdldEZhY3RSZXNwb25zZRJXCgxMaXN0RW50aXRpZXMSIi5mYWN0bWVtb3J5LnYxLkxpc3RFbnRpdGllc1JlcXVlc3QaIy5mYWN0bWVtb3J5LnYxLkxpc3RFbnRpdGllc1Jlc3BvbnNlEmYKEVByZXBhcmVFdmFsdWF0aW9uEicuZmFjdG1lbW9yeS52MS5QcmVwYXJlRXZhbHVhdGlvblJlcXVlc3QaKC5mYWN0bWVtb3J5LnYxLlByZXBhcmVFdmFsdWF0aW9uUmVzcG9uc2USaQoSQ29tcGxldGVFdmFsdWF0aW9uEiguZmFjdG1lbW9yeS52MS5Db21wbGV0ZUV2YWx1YXRpb25SZXF1ZXN0GikuZmFjdG1lbW9yeS52MS5Db21wbGV0ZUV2YWx1YXRpb25SZXNwb25zZRJdCg5Gb3JnZXRNZXNzYWdlcxIkLmZhY3RtZW1vcnkudjEuRm9yZ2V0TWVzc2FnZXNSZXF1ZXN0GiUuZmFjdG1lbW9yeS52MS5Gb3JnZXRNZXNzYWdlc1Jlc3BvbnNlEloKDVJlZ2lzdGVyQWdlbnQSIy5mYWN0bWVtb3J5LnYxLlJlZ2lzdGVyQWdlbnRSZXF1ZXN0GiQuZmFjdG1lbW9yeS52MS5SZWdpc3RlckFnZW50UmVzcG9uc2USUQoKTGlzdEFnZW50cxIgLmZhY3RtZW1vcnkudjEuTGlzdEFnZW50c1JlcXVlc3QaIS5mYWN0bWVtb3J5LnYxLkxpc3RBZ2VudHNSZXNwb25zZRJOCglHZXRMaW1pdHMSHy5mYWN0bWVtb3J5LnYxLkdldExpbWl0c1JlcXVlc3QaIC5mYWN0bWVtb3J5LnYxLkdldExpbWl0c1Jlc3BvbnNlEk4KCUZpbmRGYWN0cxIfLmZhY3RtZW1vcnkudjEuRmluZEZhY3RzUmVxdWVzdBogLmZhY3RtZW1vcnkudjEuRmluZEZhY3RzUmVzcG9uc2ViBnByb3RvMw", [file_google_protobuf_struct, file_google_protobuf_timestamp]);
var ChatMessageSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 0);
var RoomEntitySchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 1);
var FactSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 2);
var EvaluateRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 3);
var EvaluateBatchRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 4);
var EvaluateBatchResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 5);
var AppliedOpSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 6);
var RelationshipSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 7);
var IdentitySchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 8);
var SuccessVerdictSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 9);
var UsageSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 10);
var EvaluateResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 11);
var ProvideRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 12);
var ScoredFactSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 13);
var ProvideResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 14);
var ListFactsRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 15);
var ListFactsResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 16);
var CandidateSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 17);
var ListCandidatesRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 18);
var ListCandidatesResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 19);
var ResolveCandidateRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 20);
var ResolveCandidateResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 21);
var ForgetEntityRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 22);
var ChatRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 23);
var FindFactsRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 24);
var FindFactsResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 25);
var ForgetEntityResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 26);
var ExportEntityRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 27);
var ExportEntityResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 28);
var DroppedCountsSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 29);
var HistoryEntrySchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 30);
var AddFactRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 31);
var AddFactResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 32);
var UpdateFactRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 33);
var UpdateFactResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 34);
var DeleteFactRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 35);
var DeleteFactResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 36);
var GetFactRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 37);
var GetFactResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 38);
var ListEntitiesRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 39);
var EntitySummarySchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 40);
var ListEntitiesResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 41);
var PromptMessageSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 42);
var PrepareEvaluationRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 43);
var PrepareEvaluationResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 44);
var CompleteEvaluationRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 45);
var CompleteEvaluationResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 46);
var ForgetMessagesRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 47);
var ForgetMessagesResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 48);
var RegisterAgentRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 49);
var RegisterAgentResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 50);
var ListAgentsRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 51);
var AgentSummarySchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 52);
var ListAgentsResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 53);
var GetLimitsRequestSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 54);
var GetLimitsResponseSchema = /* @__PURE__ */ messageDesc(file_factmemory_v1_factmemory, 55);
var Item = /* @__PURE__ */ ((Item2) => {
  Item2[Item2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  Item2[Item2["FACTS"] = 1] = "FACTS";
  Item2[Item2["RELATIONSHIPS"] = 2] = "RELATIONSHIPS";
  Item2[Item2["IDENTITIES"] = 3] = "IDENTITIES";
  Item2[Item2["SUCCESS"] = 4] = "SUCCESS";
  return Item2;
})(Item || {});
var ItemSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 0);
var Kind = /* @__PURE__ */ ((Kind2) => {
  Kind2[Kind2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  Kind2[Kind2["DURABLE"] = 1] = "DURABLE";
  Kind2[Kind2["CURRENT"] = 2] = "CURRENT";
  return Kind2;
})(Kind || {});
var KindSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 1);
var OpType = /* @__PURE__ */ ((OpType2) => {
  OpType2[OpType2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  OpType2[OpType2["ADD_DURABLE"] = 1] = "ADD_DURABLE";
  OpType2[OpType2["ADD_CURRENT"] = 2] = "ADD_CURRENT";
  OpType2[OpType2["STRENGTHEN"] = 3] = "STRENGTHEN";
  OpType2[OpType2["DECAY"] = 4] = "DECAY";
  OpType2[OpType2["CONTRADICT"] = 5] = "CONTRADICT";
  OpType2[OpType2["MERGE"] = 6] = "MERGE";
  return OpType2;
})(OpType || {});
var OpTypeSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 2);
var VerificationStatus = /* @__PURE__ */ ((VerificationStatus2) => {
  VerificationStatus2[VerificationStatus2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  VerificationStatus2[VerificationStatus2["SELF_REPORTED"] = 1] = "SELF_REPORTED";
  VerificationStatus2[VerificationStatus2["CONFIRMED"] = 2] = "CONFIRMED";
  VerificationStatus2[VerificationStatus2["CONTRADICTED"] = 3] = "CONTRADICTED";
  return VerificationStatus2;
})(VerificationStatus || {});
var VerificationStatusSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 3);
var CandidateStatus = /* @__PURE__ */ ((CandidateStatus2) => {
  CandidateStatus2[CandidateStatus2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  CandidateStatus2[CandidateStatus2["PENDING"] = 1] = "PENDING";
  CandidateStatus2[CandidateStatus2["ACCEPTED"] = 2] = "ACCEPTED";
  CandidateStatus2[CandidateStatus2["REJECTED"] = 3] = "REJECTED";
  return CandidateStatus2;
})(CandidateStatus || {});
var CandidateStatusSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 4);
var Decision = /* @__PURE__ */ ((Decision2) => {
  Decision2[Decision2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  Decision2[Decision2["ACCEPT"] = 1] = "ACCEPT";
  Decision2[Decision2["REJECT"] = 2] = "REJECT";
  return Decision2;
})(Decision || {});
var DecisionSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 5);
var Resolution = /* @__PURE__ */ ((Resolution2) => {
  Resolution2[Resolution2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  Resolution2[Resolution2["ACCEPT"] = 1] = "ACCEPT";
  Resolution2[Resolution2["REJECT"] = 2] = "REJECT";
  Resolution2[Resolution2["KEEP_BOTH"] = 3] = "KEEP_BOTH";
  Resolution2[Resolution2["KEEP_NEW"] = 4] = "KEEP_NEW";
  Resolution2[Resolution2["KEEP_OLD"] = 5] = "KEEP_OLD";
  Resolution2[Resolution2["MERGE"] = 6] = "MERGE";
  return Resolution2;
})(Resolution || {});
var ResolutionSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 6);
var CandidateSource = /* @__PURE__ */ ((CandidateSource2) => {
  CandidateSource2[CandidateSource2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  CandidateSource2[CandidateSource2["CONTRADICT"] = 1] = "CONTRADICT";
  CandidateSource2[CandidateSource2["DEDUP_CONFLICT"] = 2] = "DEDUP_CONFLICT";
  CandidateSource2[CandidateSource2["DECAY_FLOOR"] = 3] = "DECAY_FLOOR";
  CandidateSource2[CandidateSource2["SHARED_CLAIM"] = 4] = "SHARED_CLAIM";
  return CandidateSource2;
})(CandidateSource || {});
var CandidateSourceSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 7);
var HistoryAction = /* @__PURE__ */ ((HistoryAction2) => {
  HistoryAction2[HistoryAction2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  HistoryAction2[HistoryAction2["CREATED"] = 1] = "CREATED";
  HistoryAction2[HistoryAction2["STRENGTHENED"] = 2] = "STRENGTHENED";
  HistoryAction2[HistoryAction2["DECAYED"] = 3] = "DECAYED";
  HistoryAction2[HistoryAction2["CONTRADICTED"] = 4] = "CONTRADICTED";
  HistoryAction2[HistoryAction2["MERGED"] = 5] = "MERGED";
  HistoryAction2[HistoryAction2["CANDIDATE_ACCEPTED"] = 6] = "CANDIDATE_ACCEPTED";
  HistoryAction2[HistoryAction2["CANDIDATE_REJECTED"] = 7] = "CANDIDATE_REJECTED";
  HistoryAction2[HistoryAction2["KEPT_BOTH"] = 8] = "KEPT_BOTH";
  HistoryAction2[HistoryAction2["EDITED"] = 9] = "EDITED";
  HistoryAction2[HistoryAction2["DELETED"] = 10] = "DELETED";
  HistoryAction2[HistoryAction2["RECLASSIFIED"] = 11] = "RECLASSIFIED";
  HistoryAction2[HistoryAction2["IMPORTED"] = 12] = "IMPORTED";
  HistoryAction2[HistoryAction2["ARCHIVED"] = 13] = "ARCHIVED";
  return HistoryAction2;
})(HistoryAction || {});
var HistoryActionSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 8);
var EntityKind = /* @__PURE__ */ ((EntityKind2) => {
  EntityKind2[EntityKind2["UNSPECIFIED"] = 0] = "UNSPECIFIED";
  EntityKind2[EntityKind2["PERSON"] = 1] = "PERSON";
  EntityKind2[EntityKind2["WORLD"] = 2] = "WORLD";
  EntityKind2[EntityKind2["AGENT_WIDE"] = 3] = "AGENT_WIDE";
  EntityKind2[EntityKind2["HELD"] = 4] = "HELD";
  return EntityKind2;
})(EntityKind || {});
var EntityKindSchema = /* @__PURE__ */ enumDesc(file_factmemory_v1_factmemory, 9);
var FactMemoryService = /* @__PURE__ */ serviceDesc(file_factmemory_v1_factmemory, 0);

// node_modules/@connectrpc/connect/dist/esm/code.js
var Code;
(function(Code2) {
  Code2[Code2["Canceled"] = 1] = "Canceled";
  Code2[Code2["Unknown"] = 2] = "Unknown";
  Code2[Code2["InvalidArgument"] = 3] = "InvalidArgument";
  Code2[Code2["DeadlineExceeded"] = 4] = "DeadlineExceeded";
  Code2[Code2["NotFound"] = 5] = "NotFound";
  Code2[Code2["AlreadyExists"] = 6] = "AlreadyExists";
  Code2[Code2["PermissionDenied"] = 7] = "PermissionDenied";
  Code2[Code2["ResourceExhausted"] = 8] = "ResourceExhausted";
  Code2[Code2["FailedPrecondition"] = 9] = "FailedPrecondition";
  Code2[Code2["Aborted"] = 10] = "Aborted";
  Code2[Code2["OutOfRange"] = 11] = "OutOfRange";
  Code2[Code2["Unimplemented"] = 12] = "Unimplemented";
  Code2[Code2["Internal"] = 13] = "Internal";
  Code2[Code2["Unavailable"] = 14] = "Unavailable";
  Code2[Code2["DataLoss"] = 15] = "DataLoss";
  Code2[Code2["Unauthenticated"] = 16] = "Unauthenticated";
})(Code || (Code = {}));

// node_modules/@connectrpc/connect/dist/esm/protocol-connect/code-string.js
function codeToString(value) {
  const name = Code[value];
  if (typeof name != "string") {
    return value.toString();
  }
  return name[0].toLowerCase() + name.substring(1).replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
}

// node_modules/@connectrpc/connect/dist/esm/connect-error.js
var ConnectError = class _ConnectError extends Error {
  /**
   * Create a new ConnectError.
   * If no code is provided, code "unknown" is used.
   * Outgoing details are only relevant for the server side - a service may
   * raise an error with details, and it is up to the protocol implementation
   * to encode and send the details along with the error.
   */
  constructor(message, code = Code.Unknown, metadata, outgoingDetails, cause) {
    super(createMessage(message, code));
    this.name = "ConnectError";
    Object.setPrototypeOf(this, new.target.prototype);
    this.rawMessage = message;
    this.code = code;
    this.metadata = new Headers(metadata !== null && metadata !== void 0 ? metadata : {});
    this.details = outgoingDetails !== null && outgoingDetails !== void 0 ? outgoingDetails : [];
    this.cause = cause;
  }
  /**
   * Convert any value - typically a caught error into a ConnectError,
   * following these rules:
   * - If the value is already a ConnectError, return it as is.
   * - If the value is an AbortError or TimeoutError from the fetch API, return
   *   the message of the error with code Canceled.
   * - For other Errors, return the error message with code Unknown by default.
   * - For other values, return the values String representation as a message,
   *   with the code Unknown by default.
   * The original value will be used for the "cause" property for the new
   * ConnectError.
   */
  static from(reason, code = Code.Unknown) {
    if (reason instanceof _ConnectError) {
      return reason;
    }
    if (reason instanceof Error) {
      if (reason.name == "AbortError" || reason.name == "TimeoutError") {
        return new _ConnectError(reason.message, Code.Canceled);
      }
      return new _ConnectError(reason.message, code, void 0, void 0, reason);
    }
    return new _ConnectError(String(reason), code, void 0, void 0, reason);
  }
  static [Symbol.hasInstance](v) {
    if (!(v instanceof Error)) {
      return false;
    }
    if (Object.getPrototypeOf(v) === _ConnectError.prototype) {
      return true;
    }
    return v.name === "ConnectError" && "code" in v && typeof v.code === "number" && "metadata" in v && "details" in v && Array.isArray(v.details) && "rawMessage" in v && typeof v.rawMessage == "string" && "cause" in v;
  }
  findDetails(typeOrRegistry) {
    const registry = typeOrRegistry.kind === "message" ? {
      getMessage: (typeName) => typeName === typeOrRegistry.typeName ? typeOrRegistry : void 0
    } : typeOrRegistry;
    const details = [];
    for (const data of this.details) {
      if ("desc" in data) {
        if (registry.getMessage(data.desc.typeName)) {
          details.push(create(data.desc, data.value));
        }
        continue;
      }
      const desc = registry.getMessage(data.type);
      if (desc) {
        try {
          details.push(fromBinary(desc, data.value));
        } catch (_) {
        }
      }
    }
    return details;
  }
};
function createMessage(message, code) {
  return message.length ? `[${codeToString(code)}] ${message}` : `[${codeToString(code)}]`;
}

// node_modules/@connectrpc/connect/dist/esm/http-headers.js
function decodeBinaryHeader(value, desc, options) {
  try {
    const bytes = base64Decode(value);
    if (desc) {
      return fromBinary(desc, bytes, options);
    }
    return bytes;
  } catch (e) {
    throw ConnectError.from(e, Code.DataLoss);
  }
}

// node_modules/@connectrpc/connect/dist/esm/any-client.js
function makeAnyClient(service, createMethod) {
  const client = {};
  for (const desc of service.methods) {
    const method = createMethod(desc);
    if (method != null) {
      client[desc.localName] = method;
    }
  }
  return client;
}

// node_modules/@connectrpc/connect/dist/esm/protocol/compression.js
var compressedFlag = 1;

// node_modules/@connectrpc/connect/dist/esm/protocol/limit-io.js
var maxReadMaxBytes = 4294967295;
var maxWriteMaxBytes = maxReadMaxBytes;
var defaultCompressMinBytes = 1024;
function validateReadWriteMaxBytes(readMaxBytes, writeMaxBytes, compressMinBytes) {
  writeMaxBytes !== null && writeMaxBytes !== void 0 ? writeMaxBytes : writeMaxBytes = maxWriteMaxBytes;
  readMaxBytes !== null && readMaxBytes !== void 0 ? readMaxBytes : readMaxBytes = maxReadMaxBytes;
  compressMinBytes !== null && compressMinBytes !== void 0 ? compressMinBytes : compressMinBytes = defaultCompressMinBytes;
  if (writeMaxBytes < 1 || writeMaxBytes > maxWriteMaxBytes) {
    throw new ConnectError(`writeMaxBytes ${writeMaxBytes} must be >= 1 and <= ${maxWriteMaxBytes}`, Code.Internal);
  }
  if (readMaxBytes < 1 || readMaxBytes > maxReadMaxBytes) {
    throw new ConnectError(`readMaxBytes ${readMaxBytes} must be >= 1 and <= ${maxReadMaxBytes}`, Code.Internal);
  }
  return {
    readMaxBytes,
    writeMaxBytes,
    compressMinBytes
  };
}
function assertWriteMaxBytes(writeMaxBytes, bytesWritten) {
  if (bytesWritten > writeMaxBytes) {
    throw new ConnectError(`message size ${bytesWritten} is larger than configured writeMaxBytes ${writeMaxBytes}`, Code.ResourceExhausted);
  }
}
function assertReadMaxBytes(readMaxBytes, bytesRead, totalSizeKnown = false) {
  if (bytesRead > readMaxBytes) {
    let message = `message size is larger than configured readMaxBytes ${readMaxBytes}`;
    if (totalSizeKnown) {
      message = `message size ${bytesRead} is larger than configured readMaxBytes ${readMaxBytes}`;
    }
    throw new ConnectError(message, Code.ResourceExhausted);
  }
}

// node_modules/@connectrpc/connect/dist/esm/protocol/envelope.js
function createEnvelopeDecoder(readMaxBytes) {
  return new EnvelopeDecoderImpl(readMaxBytes);
}
var EnvelopeDecoderImpl = class {
  constructor(readMaxBytes) {
    this.readMaxBytes = readMaxBytes;
    this.header = new Uint8Array(5);
    this.headerView = new DataView(this.header.buffer);
    this.buf = [];
  }
  get byteLength() {
    return this.buf.reduce((a, b) => a + b.byteLength, 0);
  }
  decode(chunk) {
    this.buf.push(chunk);
    const envs = [];
    for (; ; ) {
      let env = this.pop();
      if (!env) {
        break;
      }
      envs.push(env);
    }
    return envs;
  }
  // consume an enveloped message
  pop() {
    if (!this.env) {
      this.env = this.head();
      if (!this.env) {
        return void 0;
      }
    }
    if (this.cons(this.env.data)) {
      const env = this.env;
      this.env = void 0;
      return env;
    }
    return void 0;
  }
  // consume header
  head() {
    if (!this.cons(this.header)) {
      return void 0;
    }
    const flags = this.headerView.getUint8(0);
    const length = this.headerView.getUint32(1);
    assertReadMaxBytes(this.readMaxBytes, length, true);
    return {
      flags,
      data: new Uint8Array(length)
    };
  }
  // consume from buffer, fill target
  cons(target) {
    const wantLength = target.byteLength;
    if (this.byteLength < wantLength) {
      return false;
    }
    let offset = 0;
    while (offset < wantLength) {
      const chunk = this.buf.shift();
      if (chunk.byteLength > wantLength - offset) {
        target.set(chunk.subarray(0, wantLength - offset), offset);
        this.buf.unshift(chunk.subarray(wantLength - offset));
        offset += wantLength - offset;
      } else {
        target.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    return true;
  }
};
async function envelopeCompress(envelope, compression, compressMinBytes) {
  let { flags, data } = envelope;
  if ((flags & compressedFlag) === compressedFlag) {
    throw new ConnectError("invalid envelope, already compressed", Code.Internal);
  }
  if (compression && data.byteLength >= compressMinBytes) {
    data = await compression.compress(data);
    flags = flags | compressedFlag;
  }
  return { data, flags };
}
async function envelopeDecompress(envelope, compression, readMaxBytes) {
  let { flags, data } = envelope;
  if ((flags & compressedFlag) === compressedFlag) {
    if (!compression) {
      throw new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal);
    }
    data = await compression.decompress(data, readMaxBytes);
    flags = flags ^ compressedFlag;
  }
  return { data, flags };
}
function encodeEnvelope(flags, data) {
  const bytes = new Uint8Array(data.length + 5);
  bytes.set(data, 5);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  v.setUint8(0, flags);
  v.setUint32(1, data.length);
  return bytes;
}

// node_modules/@connectrpc/connect/dist/esm/protocol/async-iterable.js
var __asyncValues = function(o) {
  if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
  var m = o[Symbol.asyncIterator], i;
  return m ? m.call(o) : (o = typeof __values === "function" ? __values(o) : o[Symbol.iterator](), i = {}, verb("next"), verb("throw"), verb("return"), i[Symbol.asyncIterator] = function() {
    return this;
  }, i);
  function verb(n) {
    i[n] = o[n] && function(v) {
      return new Promise(function(resolve, reject) {
        v = o[n](v), settle(resolve, reject, v.done, v.value);
      });
    };
  }
  function settle(resolve, reject, d, v) {
    Promise.resolve(v).then(function(v2) {
      resolve({ value: v2, done: d });
    }, reject);
  }
};
var __await = function(v) {
  return this instanceof __await ? (this.v = v, this) : new __await(v);
};
var __asyncGenerator = function(thisArg, _arguments, generator) {
  if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
  var g = generator.apply(thisArg, _arguments || []), i, q = [];
  return i = Object.create((typeof AsyncIterator === "function" ? AsyncIterator : Object).prototype), verb("next"), verb("throw"), verb("return", awaitReturn), i[Symbol.asyncIterator] = function() {
    return this;
  }, i;
  function awaitReturn(f) {
    return function(v) {
      return Promise.resolve(v).then(f, reject);
    };
  }
  function verb(n, f) {
    if (g[n]) {
      i[n] = function(v) {
        return new Promise(function(a, b) {
          q.push([n, v, a, b]) > 1 || resume(n, v);
        });
      };
      if (f) i[n] = f(i[n]);
    }
  }
  function resume(n, v) {
    try {
      step(g[n](v));
    } catch (e) {
      settle(q[0][3], e);
    }
  }
  function step(r) {
    r.value instanceof __await ? Promise.resolve(r.value.v).then(fulfill, reject) : settle(q[0][2], r);
  }
  function fulfill(value) {
    resume("next", value);
  }
  function reject(value) {
    resume("throw", value);
  }
  function settle(f, v) {
    if (f(v), q.shift(), q.length) resume(q[0][0], q[0][1]);
  }
};
var __asyncDelegator = function(o) {
  var i, p;
  return i = {}, verb("next"), verb("throw", function(e) {
    throw e;
  }), verb("return"), i[Symbol.iterator] = function() {
    return this;
  }, i;
  function verb(n, f) {
    i[n] = o[n] ? function(v) {
      return (p = !p) ? { value: __await(o[n](v)), done: false } : f ? f(v) : v;
    } : f;
  }
};
function pipeTo(source, ...rest) {
  const [transforms, sink, opt] = pickTransformsAndSink(rest);
  let iterable = source;
  let abortable;
  if ((opt === null || opt === void 0 ? void 0 : opt.propagateDownStreamError) === true) {
    iterable = abortable = makeIterableAbortable(iterable);
  }
  iterable = pipe(iterable, ...transforms, { propagateDownStreamError: false });
  return sink(iterable).catch((reason) => {
    if (abortable) {
      return abortable.abort(reason).then(() => Promise.reject(reason));
    }
    return Promise.reject(reason);
  });
}
function pickTransformsAndSink(rest) {
  let opt;
  if (typeof rest[rest.length - 1] != "function") {
    opt = rest.pop();
  }
  const sink = rest.pop();
  return [rest, sink, opt];
}
function pipe(source, ...rest) {
  return __asyncGenerator(this, arguments, function* pipe_1() {
    var _a;
    const [transforms, opt] = pickTransforms(rest);
    let abortable;
    const sourceIt = source[Symbol.asyncIterator]();
    const cachedSource = {
      [Symbol.asyncIterator]() {
        return sourceIt;
      }
    };
    let iterable = cachedSource;
    if ((opt === null || opt === void 0 ? void 0 : opt.propagateDownStreamError) === true) {
      iterable = abortable = makeIterableAbortable(iterable);
    }
    for (const t of transforms) {
      iterable = t(iterable);
    }
    const it = iterable[Symbol.asyncIterator]();
    try {
      for (; ; ) {
        const r = yield __await(it.next());
        if (r.done === true) {
          break;
        }
        if (!abortable) {
          yield yield __await(r.value);
          continue;
        }
        try {
          yield yield __await(r.value);
        } catch (e) {
          yield __await(abortable.abort(e));
          throw e;
        }
      }
    } finally {
      if ((opt === null || opt === void 0 ? void 0 : opt.propagateDownStreamError) === true) {
        (_a = sourceIt.return) === null || _a === void 0 ? void 0 : _a.call(sourceIt).catch(() => {
        });
      }
    }
  });
}
function pickTransforms(rest) {
  let opt;
  if (typeof rest[rest.length - 1] != "function") {
    opt = rest.pop();
  }
  return [rest, opt];
}
function transformSerializeEnvelope(serialization, endStreamFlag, endSerialization) {
  if (endStreamFlag === void 0 || endSerialization === void 0) {
    return function(iterable) {
      return __asyncGenerator(this, arguments, function* () {
        var _a, e_4, _b, _c;
        try {
          for (var _d = true, iterable_4 = __asyncValues(iterable), iterable_4_1; iterable_4_1 = yield __await(iterable_4.next()), _a = iterable_4_1.done, !_a; _d = true) {
            _c = iterable_4_1.value;
            _d = false;
            const chunk = _c;
            const data = serialization.serialize(chunk);
            yield yield __await({ flags: 0, data });
          }
        } catch (e_4_1) {
          e_4 = { error: e_4_1 };
        } finally {
          try {
            if (!_d && !_a && (_b = iterable_4.return)) yield __await(_b.call(iterable_4));
          } finally {
            if (e_4) throw e_4.error;
          }
        }
      });
    };
  }
  return function(iterable) {
    return __asyncGenerator(this, arguments, function* () {
      var _a, e_5, _b, _c;
      try {
        for (var _d = true, iterable_5 = __asyncValues(iterable), iterable_5_1; iterable_5_1 = yield __await(iterable_5.next()), _a = iterable_5_1.done, !_a; _d = true) {
          _c = iterable_5_1.value;
          _d = false;
          const chunk = _c;
          let data;
          let flags = 0;
          if (chunk.end) {
            flags = flags | endStreamFlag;
            data = endSerialization.serialize(chunk.value);
          } else {
            data = serialization.serialize(chunk.value);
          }
          yield yield __await({ flags, data });
        }
      } catch (e_5_1) {
        e_5 = { error: e_5_1 };
      } finally {
        try {
          if (!_d && !_a && (_b = iterable_5.return)) yield __await(_b.call(iterable_5));
        } finally {
          if (e_5) throw e_5.error;
        }
      }
    });
  };
}
function transformParseEnvelope(serialization, endStreamFlag, endSerialization) {
  if (endSerialization && endStreamFlag !== void 0) {
    return function(iterable) {
      return __asyncGenerator(this, arguments, function* () {
        var _a, e_6, _b, _c;
        try {
          for (var _d = true, iterable_6 = __asyncValues(iterable), iterable_6_1; iterable_6_1 = yield __await(iterable_6.next()), _a = iterable_6_1.done, !_a; _d = true) {
            _c = iterable_6_1.value;
            _d = false;
            const { flags, data } = _c;
            if ((flags & endStreamFlag) === endStreamFlag) {
              yield yield __await({ value: endSerialization.parse(data), end: true });
            } else {
              yield yield __await({ value: serialization.parse(data), end: false });
            }
          }
        } catch (e_6_1) {
          e_6 = { error: e_6_1 };
        } finally {
          try {
            if (!_d && !_a && (_b = iterable_6.return)) yield __await(_b.call(iterable_6));
          } finally {
            if (e_6) throw e_6.error;
          }
        }
      });
    };
  }
  return function(iterable) {
    return __asyncGenerator(this, arguments, function* () {
      var _a, e_7, _b, _c;
      try {
        for (var _d = true, iterable_7 = __asyncValues(iterable), iterable_7_1; iterable_7_1 = yield __await(iterable_7.next()), _a = iterable_7_1.done, !_a; _d = true) {
          _c = iterable_7_1.value;
          _d = false;
          const { flags, data } = _c;
          if (endStreamFlag !== void 0 && (flags & endStreamFlag) === endStreamFlag) {
            if (endSerialization === null) {
              throw new ConnectError("unexpected end flag", Code.InvalidArgument);
            }
            continue;
          }
          yield yield __await(serialization.parse(data));
        }
      } catch (e_7_1) {
        e_7 = { error: e_7_1 };
      } finally {
        try {
          if (!_d && !_a && (_b = iterable_7.return)) yield __await(_b.call(iterable_7));
        } finally {
          if (e_7) throw e_7.error;
        }
      }
    });
  };
}
function transformCompressEnvelope(compression, compressMinBytes) {
  return function(iterable) {
    return __asyncGenerator(this, arguments, function* () {
      var _a, e_8, _b, _c;
      try {
        for (var _d = true, iterable_8 = __asyncValues(iterable), iterable_8_1; iterable_8_1 = yield __await(iterable_8.next()), _a = iterable_8_1.done, !_a; _d = true) {
          _c = iterable_8_1.value;
          _d = false;
          const env = _c;
          yield yield __await(yield __await(envelopeCompress(env, compression, compressMinBytes)));
        }
      } catch (e_8_1) {
        e_8 = { error: e_8_1 };
      } finally {
        try {
          if (!_d && !_a && (_b = iterable_8.return)) yield __await(_b.call(iterable_8));
        } finally {
          if (e_8) throw e_8.error;
        }
      }
    });
  };
}
function transformDecompressEnvelope(compression, readMaxBytes) {
  return function(iterable) {
    return __asyncGenerator(this, arguments, function* () {
      var _a, e_9, _b, _c;
      try {
        for (var _d = true, iterable_9 = __asyncValues(iterable), iterable_9_1; iterable_9_1 = yield __await(iterable_9.next()), _a = iterable_9_1.done, !_a; _d = true) {
          _c = iterable_9_1.value;
          _d = false;
          const env = _c;
          yield yield __await(yield __await(envelopeDecompress(env, compression, readMaxBytes)));
        }
      } catch (e_9_1) {
        e_9 = { error: e_9_1 };
      } finally {
        try {
          if (!_d && !_a && (_b = iterable_9.return)) yield __await(_b.call(iterable_9));
        } finally {
          if (e_9) throw e_9.error;
        }
      }
    });
  };
}
function transformJoinEnvelopes() {
  return function(iterable) {
    return __asyncGenerator(this, arguments, function* () {
      var _a, e_10, _b, _c;
      try {
        for (var _d = true, iterable_10 = __asyncValues(iterable), iterable_10_1; iterable_10_1 = yield __await(iterable_10.next()), _a = iterable_10_1.done, !_a; _d = true) {
          _c = iterable_10_1.value;
          _d = false;
          const { flags, data } = _c;
          yield yield __await(encodeEnvelope(flags, data));
        }
      } catch (e_10_1) {
        e_10 = { error: e_10_1 };
      } finally {
        try {
          if (!_d && !_a && (_b = iterable_10.return)) yield __await(_b.call(iterable_10));
        } finally {
          if (e_10) throw e_10.error;
        }
      }
    });
  };
}
function transformSplitEnvelope(readMaxBytes) {
  return function(iterable) {
    return __asyncGenerator(this, arguments, function* () {
      var _a, e_11, _b, _c;
      const buffer = createEnvelopeDecoder(readMaxBytes);
      try {
        for (var _d = true, iterable_11 = __asyncValues(iterable), iterable_11_1; iterable_11_1 = yield __await(iterable_11.next()), _a = iterable_11_1.done, !_a; _d = true) {
          _c = iterable_11_1.value;
          _d = false;
          const chunk = _c;
          for (const env of buffer.decode(chunk)) {
            yield yield __await(env);
          }
        }
      } catch (e_11_1) {
        e_11 = { error: e_11_1 };
      } finally {
        try {
          if (!_d && !_a && (_b = iterable_11.return)) yield __await(_b.call(iterable_11));
        } finally {
          if (e_11) throw e_11.error;
        }
      }
      if (buffer.byteLength > 0) {
        throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
      }
    });
  };
}
function makeIterableAbortable(iterable) {
  const innerCandidate = iterable[Symbol.asyncIterator]();
  if (innerCandidate.throw === void 0) {
    throw new Error("AsyncIterable does not implement throw");
  }
  const inner = innerCandidate;
  let aborted;
  let resultPromise;
  let it = {
    next() {
      resultPromise = inner.next().finally(() => {
        resultPromise = void 0;
      });
      return resultPromise;
    },
    throw(e) {
      return inner.throw(e);
    }
  };
  if (innerCandidate.return !== void 0) {
    it = Object.assign(Object.assign({}, it), { return(value) {
      return inner.return(value);
    } });
  }
  let used = false;
  return {
    abort(reason) {
      if (aborted) {
        return aborted.state;
      }
      const f = () => {
        return inner.throw(reason).then((r) => r.done === true ? "completed" : "caught", () => "rethrown");
      };
      if (resultPromise) {
        aborted = { reason, state: resultPromise.then(f, f) };
        return aborted.state;
      }
      aborted = { reason, state: f() };
      return aborted.state;
    },
    [Symbol.asyncIterator]() {
      if (used) {
        throw new Error("AsyncIterable cannot be re-used");
      }
      used = true;
      return it;
    }
  };
}
function createAsyncIterable(items) {
  return __asyncGenerator(this, arguments, function* createAsyncIterable_1() {
    yield __await(yield* __asyncDelegator(__asyncValues(items)));
  });
}

// node_modules/@connectrpc/connect/dist/esm/promise-client.js
var __asyncValues2 = function(o) {
  if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
  var m = o[Symbol.asyncIterator], i;
  return m ? m.call(o) : (o = typeof __values === "function" ? __values(o) : o[Symbol.iterator](), i = {}, verb("next"), verb("throw"), verb("return"), i[Symbol.asyncIterator] = function() {
    return this;
  }, i);
  function verb(n) {
    i[n] = o[n] && function(v) {
      return new Promise(function(resolve, reject) {
        v = o[n](v), settle(resolve, reject, v.done, v.value);
      });
    };
  }
  function settle(resolve, reject, d, v) {
    Promise.resolve(v).then(function(v2) {
      resolve({ value: v2, done: d });
    }, reject);
  }
};
var __await2 = function(v) {
  return this instanceof __await2 ? (this.v = v, this) : new __await2(v);
};
var __asyncDelegator2 = function(o) {
  var i, p;
  return i = {}, verb("next"), verb("throw", function(e) {
    throw e;
  }), verb("return"), i[Symbol.iterator] = function() {
    return this;
  }, i;
  function verb(n, f) {
    i[n] = o[n] ? function(v) {
      return (p = !p) ? { value: __await2(o[n](v)), done: false } : f ? f(v) : v;
    } : f;
  }
};
var __asyncGenerator2 = function(thisArg, _arguments, generator) {
  if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
  var g = generator.apply(thisArg, _arguments || []), i, q = [];
  return i = Object.create((typeof AsyncIterator === "function" ? AsyncIterator : Object).prototype), verb("next"), verb("throw"), verb("return", awaitReturn), i[Symbol.asyncIterator] = function() {
    return this;
  }, i;
  function awaitReturn(f) {
    return function(v) {
      return Promise.resolve(v).then(f, reject);
    };
  }
  function verb(n, f) {
    if (g[n]) {
      i[n] = function(v) {
        return new Promise(function(a, b) {
          q.push([n, v, a, b]) > 1 || resume(n, v);
        });
      };
      if (f) i[n] = f(i[n]);
    }
  }
  function resume(n, v) {
    try {
      step(g[n](v));
    } catch (e) {
      settle(q[0][3], e);
    }
  }
  function step(r) {
    r.value instanceof __await2 ? Promise.resolve(r.value.v).then(fulfill, reject) : settle(q[0][2], r);
  }
  function fulfill(value) {
    resume("next", value);
  }
  function reject(value) {
    resume("throw", value);
  }
  function settle(f, v) {
    if (f(v), q.shift(), q.length) resume(q[0][0], q[0][1]);
  }
};
function createClient(service, transport) {
  return makeAnyClient(service, (method) => {
    switch (method.methodKind) {
      case "unary":
        return createUnaryFn(transport, method);
      case "server_streaming":
        return createServerStreamingFn(transport, method);
      case "client_streaming":
        return createClientStreamingFn(transport, method);
      case "bidi_streaming":
        return createBiDiStreamingFn(transport, method);
      default:
        return null;
    }
  });
}
function createUnaryFn(transport, method) {
  return async (input, options) => {
    var _a, _b;
    const response = await transport.unary(method, options === null || options === void 0 ? void 0 : options.signal, options === null || options === void 0 ? void 0 : options.timeoutMs, options === null || options === void 0 ? void 0 : options.headers, input, options === null || options === void 0 ? void 0 : options.contextValues);
    (_a = options === null || options === void 0 ? void 0 : options.onHeader) === null || _a === void 0 ? void 0 : _a.call(options, response.header);
    (_b = options === null || options === void 0 ? void 0 : options.onTrailer) === null || _b === void 0 ? void 0 : _b.call(options, response.trailer);
    return response.message;
  };
}
function createServerStreamingFn(transport, method) {
  return (input, options) => handleStreamResponse(transport.stream(method, options === null || options === void 0 ? void 0 : options.signal, options === null || options === void 0 ? void 0 : options.timeoutMs, options === null || options === void 0 ? void 0 : options.headers, createAsyncIterable([input]), options === null || options === void 0 ? void 0 : options.contextValues), options);
}
function createClientStreamingFn(transport, method) {
  return async (request3, options) => {
    var _a, e_1, _b, _c;
    var _d, _e;
    const response = await transport.stream(method, options === null || options === void 0 ? void 0 : options.signal, options === null || options === void 0 ? void 0 : options.timeoutMs, options === null || options === void 0 ? void 0 : options.headers, request3, options === null || options === void 0 ? void 0 : options.contextValues);
    (_d = options === null || options === void 0 ? void 0 : options.onHeader) === null || _d === void 0 ? void 0 : _d.call(options, response.header);
    let singleMessage;
    let count = 0;
    try {
      for (var _f = true, _g = __asyncValues2(response.message), _h; _h = await _g.next(), _a = _h.done, !_a; _f = true) {
        _c = _h.value;
        _f = false;
        const message = _c;
        singleMessage = message;
        count++;
      }
    } catch (e_1_1) {
      e_1 = { error: e_1_1 };
    } finally {
      try {
        if (!_f && !_a && (_b = _g.return)) await _b.call(_g);
      } finally {
        if (e_1) throw e_1.error;
      }
    }
    if (!singleMessage) {
      throw new ConnectError("protocol error: missing response message", Code.Unimplemented);
    }
    if (count > 1) {
      throw new ConnectError("protocol error: received extra messages for client streaming method", Code.Unimplemented);
    }
    (_e = options === null || options === void 0 ? void 0 : options.onTrailer) === null || _e === void 0 ? void 0 : _e.call(options, response.trailer);
    return singleMessage;
  };
}
function createBiDiStreamingFn(transport, method) {
  return (request3, options) => handleStreamResponse(transport.stream(method, options === null || options === void 0 ? void 0 : options.signal, options === null || options === void 0 ? void 0 : options.timeoutMs, options === null || options === void 0 ? void 0 : options.headers, request3, options === null || options === void 0 ? void 0 : options.contextValues), options);
}
function handleStreamResponse(stream, options) {
  const it = (function() {
    return __asyncGenerator2(this, arguments, function* () {
      var _a, _b;
      const response = yield __await2(stream);
      (_a = options === null || options === void 0 ? void 0 : options.onHeader) === null || _a === void 0 ? void 0 : _a.call(options, response.header);
      yield __await2(yield* __asyncDelegator2(__asyncValues2(response.message)));
      (_b = options === null || options === void 0 ? void 0 : options.onTrailer) === null || _b === void 0 ? void 0 : _b.call(options, response.trailer);
    });
  })()[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => it.next()
    })
  };
}

// node_modules/@connectrpc/connect/dist/esm/protocol/signals.js
function createLinkedAbortController(...signals) {
  const controller = new AbortController();
  const sa = signals.filter((s) => s !== void 0).concat(controller.signal);
  for (const signal of sa) {
    if (signal.aborted) {
      onAbort.apply(signal);
      break;
    }
    signal.addEventListener("abort", onAbort);
  }
  function onAbort() {
    if (!controller.signal.aborted) {
      controller.abort(getAbortSignalReason(this));
    }
    for (const signal of sa) {
      signal.removeEventListener("abort", onAbort);
    }
  }
  return controller;
}
function createDeadlineSignal(timeoutMs) {
  const controller = new AbortController();
  const listener = () => {
    controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  };
  let timeoutId;
  if (timeoutMs !== void 0) {
    if (timeoutMs <= 0)
      listener();
    else
      timeoutId = setTimeout(listener, timeoutMs);
  }
  return {
    signal: controller.signal,
    cleanup: () => clearTimeout(timeoutId)
  };
}
function getAbortSignalReason(signal) {
  if (!signal.aborted) {
    return void 0;
  }
  if (signal.reason !== void 0) {
    return signal.reason;
  }
  const e = new Error("This operation was aborted");
  e.name = "AbortError";
  return e;
}

// node_modules/@connectrpc/connect/dist/esm/context-values.js
function createContextValues() {
  return {
    get(key) {
      return key.id in this ? this[key.id] : key.defaultValue;
    },
    set(key, value) {
      this[key.id] = value;
      return this;
    },
    delete(key) {
      delete this[key.id];
      return this;
    }
  };
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/headers.js
var headerContentType = "Content-Type";
var headerEncoding = "Grpc-Encoding";
var headerAcceptEncoding = "Grpc-Accept-Encoding";
var headerTimeout = "Grpc-Timeout";
var headerGrpcStatus = "Grpc-Status";
var headerGrpcMessage = "Grpc-Message";
var headerStatusDetailsBin = "Grpc-Status-Details-Bin";
var headerUserAgent = "User-Agent";

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/gen/status_pb.js
var file_status = /* @__PURE__ */ fileDesc("CgxzdGF0dXMucHJvdG8SCmdvb2dsZS5ycGMiTgoGU3RhdHVzEgwKBGNvZGUYASABKAUSDwoHbWVzc2FnZRgCIAEoCRIlCgdkZXRhaWxzGAMgAygLMhQuZ29vZ2xlLnByb3RvYnVmLkFueUJeCg5jb20uZ29vZ2xlLnJwY0ILU3RhdHVzUHJvdG9QAVo3Z29vZ2xlLmdvbGFuZy5vcmcvZ2VucHJvdG8vZ29vZ2xlYXBpcy9ycGMvc3RhdHVzO3N0YXR1c6ICA1JQQ2IGcHJvdG8z", [file_google_protobuf_any]);
var StatusSchema = /* @__PURE__ */ messageDesc(file_status, 0);

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/trailer-status.js
var grpcStatusOk = "0";
function findTrailerError(headerOrTrailer) {
  var _a;
  const statusBytes = headerOrTrailer.get(headerStatusDetailsBin);
  if (statusBytes != null) {
    const status = decodeBinaryHeader(statusBytes, StatusSchema);
    if (status.code == 0) {
      return void 0;
    }
    const error2 = new ConnectError(status.message, status.code, headerOrTrailer);
    error2.details = status.details.map((any) => ({
      type: any.typeUrl.substring(any.typeUrl.lastIndexOf("/") + 1),
      value: any.value
    }));
    return error2;
  }
  const grpcStatus = headerOrTrailer.get(headerGrpcStatus);
  if (grpcStatus != null) {
    if (grpcStatus === grpcStatusOk) {
      return void 0;
    }
    const code = parseInt(grpcStatus, 10);
    if (code in Code) {
      return new ConnectError(decodeURIComponent((_a = headerOrTrailer.get(headerGrpcMessage)) !== null && _a !== void 0 ? _a : ""), code, headerOrTrailer);
    }
    return new ConnectError(`invalid grpc-status: ${grpcStatus}`, Code.Internal, headerOrTrailer);
  }
  return void 0;
}

// node_modules/@connectrpc/connect/dist/esm/protocol/create-method-url.js
function createMethodUrl(baseUrl, method) {
  return baseUrl.toString().replace(/\/?$/, `/${method.parent.typeName}/${method.name}`);
}

// node_modules/@connectrpc/connect/dist/esm/protocol/normalize.js
function normalize(desc, message) {
  return create(desc, message);
}
function normalizeIterable(desc, input) {
  function transform(result) {
    if (result.done === true) {
      return result;
    }
    return {
      done: result.done,
      value: normalize(desc, result.value)
    };
  }
  return {
    [Symbol.asyncIterator]() {
      const it = input[Symbol.asyncIterator]();
      const res = {
        next: () => it.next().then(transform)
      };
      if (it.throw !== void 0) {
        res.throw = (e) => it.throw(e).then(transform);
      }
      if (it.return !== void 0) {
        res.return = (v) => it.return(v).then(transform);
      }
      return res;
    }
  };
}

// node_modules/@connectrpc/connect/dist/esm/interceptor.js
function applyInterceptors(next, interceptors) {
  if (!interceptors) {
    return next;
  }
  for (const i of interceptors.concat().reverse()) {
    next = i(next);
  }
  return next;
}

// node_modules/@connectrpc/connect/dist/esm/protocol/serialization.js
function getJsonOptions(options) {
  var _a;
  const o = Object.assign({}, options);
  (_a = o.ignoreUnknownFields) !== null && _a !== void 0 ? _a : o.ignoreUnknownFields = true;
  return o;
}
function createMethodSerializationLookup(method, binaryOptions, jsonOptions, limitOptions) {
  const inputBinary = limitSerialization(createBinarySerialization(method.input, binaryOptions), limitOptions);
  const inputJson = limitSerialization(createJsonSerialization(method.input, jsonOptions), limitOptions);
  const outputBinary = limitSerialization(createBinarySerialization(method.output, binaryOptions), limitOptions);
  const outputJson = limitSerialization(createJsonSerialization(method.output, jsonOptions), limitOptions);
  return {
    getI(useBinaryFormat) {
      return useBinaryFormat ? inputBinary : inputJson;
    },
    getO(useBinaryFormat) {
      return useBinaryFormat ? outputBinary : outputJson;
    }
  };
}
function limitSerialization(serialization, limitOptions) {
  return {
    serialize(data) {
      const bytes = serialization.serialize(data);
      assertWriteMaxBytes(limitOptions.writeMaxBytes, bytes.byteLength);
      return bytes;
    },
    parse(data) {
      assertReadMaxBytes(limitOptions.readMaxBytes, data.byteLength, true);
      return serialization.parse(data);
    }
  };
}
function createBinarySerialization(desc, options) {
  return {
    parse(data) {
      try {
        return fromBinary(desc, data, options);
      } catch (e) {
        const m = e instanceof Error ? e.message : String(e);
        throw new ConnectError(`parse binary: ${m}`, Code.Internal);
      }
    },
    serialize(data) {
      try {
        return toBinary(desc, data, options);
      } catch (e) {
        const m = e instanceof Error ? e.message : String(e);
        throw new ConnectError(`serialize binary: ${m}`, Code.Internal);
      }
    }
  };
}
function createJsonSerialization(desc, options) {
  var _a, _b;
  const textEncoder = (_a = options === null || options === void 0 ? void 0 : options.textEncoder) !== null && _a !== void 0 ? _a : new TextEncoder();
  const textDecoder = (_b = options === null || options === void 0 ? void 0 : options.textDecoder) !== null && _b !== void 0 ? _b : new TextDecoder();
  const o = getJsonOptions(options);
  return {
    parse(data) {
      try {
        const json = textDecoder.decode(data);
        return fromJsonString(desc, json, o);
      } catch (e) {
        throw ConnectError.from(e, Code.InvalidArgument);
      }
    },
    serialize(data) {
      try {
        const json = toJsonString(desc, data, o);
        return textEncoder.encode(json);
      } catch (e) {
        throw ConnectError.from(e, Code.Internal);
      }
    }
  };
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/content-type.js
var contentTypeRegExp = /^application\/grpc(?:\+(?:(json)(?:; ?charset=utf-?8)?|proto))?$/i;
var contentTypeProto = "application/grpc+proto";
var contentTypeJson = "application/grpc+json";
function parseContentType(contentType) {
  const match = contentType === null || contentType === void 0 ? void 0 : contentType.match(contentTypeRegExp);
  if (!match) {
    return void 0;
  }
  const binary = !match[1];
  return { binary };
}

// node_modules/@connectrpc/connect/dist/esm/protocol/run-call.js
function runUnaryCall(opt) {
  const next = applyInterceptors(opt.next, opt.interceptors);
  const [signal, abort, done] = setupSignal(opt);
  const req = Object.assign(Object.assign({}, opt.req), { message: normalize(opt.req.method.input, opt.req.message), signal });
  return next(req).then((res) => {
    done();
    return res;
  }, abort);
}
function runStreamingCall(opt) {
  const next = applyInterceptors(opt.next, opt.interceptors);
  const [signal, abort, done] = setupSignal(opt);
  const req = Object.assign(Object.assign({}, opt.req), { message: normalizeIterable(opt.req.method.input, opt.req.message), signal });
  let doneCalled = false;
  signal.addEventListener("abort", function() {
    var _a, _b;
    const it = opt.req.message[Symbol.asyncIterator]();
    if (!doneCalled) {
      (_a = it.throw) === null || _a === void 0 ? void 0 : _a.call(it, this.reason).catch(() => {
      });
    }
    (_b = it.return) === null || _b === void 0 ? void 0 : _b.call(it).catch(() => {
    });
  });
  return next(req).then((res) => {
    return Object.assign(Object.assign({}, res), { message: {
      [Symbol.asyncIterator]() {
        const it = res.message[Symbol.asyncIterator]();
        return {
          next() {
            return it.next().then((r) => {
              if (r.done == true) {
                doneCalled = true;
                done();
              }
              return r;
            }, abort);
          }
          // We deliberately omit throw/return.
        };
      }
    } });
  }, abort);
}
function setupSignal(opt) {
  const { signal, cleanup } = createDeadlineSignal(opt.timeoutMs);
  const controller = createLinkedAbortController(opt.signal, signal);
  return [
    controller.signal,
    function abort(reason) {
      const e = controller.signal.aborted ? ConnectError.from(getAbortSignalReason(controller.signal), Code.Canceled) : ConnectError.from(reason);
      controller.abort(e);
      cleanup();
      return Promise.reject(e);
    },
    function done() {
      cleanup();
      controller.abort();
    }
  ];
}

// src/limits.ts
var DEFAULT_LIMITS = Object.freeze({
  maxTextChars: 8e3,
  maxNameChars: 200,
  maxRecentMessages: 50,
  maxBatchMessages: 16,
  maxRoomEntities: 100,
  maxProvideLimit: 50,
  maxSpeakerRoles: 16
});
var LIMITS_RETRY_MS = 3e4;
var LearnedLimits = class {
  #options;
  #learned;
  #asking;
  #askAfter = 0;
  constructor(options) {
    this.#options = options;
  }
  /** The service's limits; the defaults while it cannot be asked (never rejects). */
  get() {
    if (this.#learned) return Promise.resolve(this.#learned);
    if (this.#asking) return this.#asking;
    if (this.#now() < this.#askAfter) return Promise.resolve(DEFAULT_LIMITS);
    const asking = this.#ask().finally(() => {
      this.#asking = void 0;
    });
    this.#asking = asking;
    return asking;
  }
  async #ask() {
    try {
      this.#learned = fromResponse(await this.#options.ask());
      return this.#learned;
    } catch (error2) {
      if (ConnectError.from(error2).code === Code.Unimplemented) {
        this.#learned = DEFAULT_LIMITS;
        this.#options.onOlderService(error2);
      } else {
        this.#askAfter = this.#now() + (this.#options.retryMs ?? LIMITS_RETRY_MS);
        this.#options.onFailure(error2);
      }
      return DEFAULT_LIMITS;
    }
  }
  #now() {
    return (this.#options.now ?? Date.now)();
  }
};
function fromResponse(response) {
  const given = (value, fallback) => value > 0 ? value : fallback;
  return Object.freeze({
    maxTextChars: given(response.maxTextChars, DEFAULT_LIMITS.maxTextChars),
    maxNameChars: given(response.maxNameChars, DEFAULT_LIMITS.maxNameChars),
    maxRecentMessages: given(response.maxRecentMessages, DEFAULT_LIMITS.maxRecentMessages),
    maxBatchMessages: given(response.maxBatchMessages, DEFAULT_LIMITS.maxBatchMessages),
    maxRoomEntities: given(response.maxRoomEntities, DEFAULT_LIMITS.maxRoomEntities),
    maxProvideLimit: given(response.maxProvideLimit, DEFAULT_LIMITS.maxProvideLimit),
    maxSpeakerRoles: given(response.maxSpeakerRoles, DEFAULT_LIMITS.maxSpeakerRoles)
  });
}

// src/retry.ts
var TRANSIENT = /* @__PURE__ */ new Set([
  Code.Unavailable,
  Code.DeadlineExceeded,
  Code.Canceled,
  Code.Aborted,
  Code.Unknown
]);
function isTransient(error2) {
  return TRANSIENT.has(ConnectError.from(error2).code);
}
var FINAL = /* @__PURE__ */ new Set([Code.FailedPrecondition, Code.InvalidArgument]);
function isFinal(error2) {
  return FINAL.has(ConnectError.from(error2).code);
}
var sleep = (ms) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  timer.unref();
});
async function withRetries(call, delaysMs, wait = sleep) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error2) {
      const delay = delaysMs[attempt];
      if (delay === void 0 || !isTransient(error2)) throw error2;
      await wait(delay);
    }
  }
}

// src/batch.ts
var STORE_VERSION = 1;
var Batcher = class {
  #options;
  /** Per person and room, oldest first. */
  #pending = /* @__PURE__ */ new Map();
  #timers = /* @__PURE__ */ new Map();
  /** One send at a time per person and room. */
  #sending = /* @__PURE__ */ new Map();
  #saved = Promise.resolve();
  #closed = false;
  constructor(options) {
    this.#options = options;
  }
  /** Messages waiting, in all rooms. */
  get waiting() {
    let count = 0;
    for (const list of this.#pending.values()) count += list.length;
    return count;
  }
  /**
   * Queues one message's request. When its person has `every` messages waiting they are sent, and this
   * message's own result comes back; otherwise it waits (and the quiet timer starts again).
   */
  async add(request3) {
    const key = keyOf(request3);
    const list = this.#pending.get(key) ?? [];
    const id = request3.message?.id ?? "";
    if (!list.some((queued) => queued.message?.id === id)) list.push(request3);
    this.#pending.set(key, list);
    await this.#save();
    const { maxBatchMessages } = await this.#limits();
    if (list.length >= Math.min(this.#options.every, maxBatchMessages)) {
      const results = await this.flush(key);
      return results.get(id) ?? { queued: true, waiting: this.#pending.get(key)?.length ?? 0 };
    }
    this.#arm(key);
    return { queued: true, waiting: list.length };
  }
  /** Sends what waits for one person and room (in batches the service takes); results by message id. */
  flush(key) {
    clearTimeout(this.#timers.get(key));
    this.#timers.delete(key);
    const previous = this.#sending.get(key) ?? Promise.resolve();
    const next = previous.catch(() => void 0).then(() => this.#sendAll(key));
    this.#sending.set(key, next);
    void next.finally(() => {
      if (this.#sending.get(key) === next) this.#sending.delete(key);
    }).catch(() => void 0);
    return next;
  }
  /** Sends everything that waits; failures are reported and the messages stay pending. */
  async flushAll() {
    await Promise.all(
      [...this.#pending.keys()].map(
        (key) => this.flush(key).catch((error2) => this.#options.onError("EvaluateBatch", error2))
      )
    );
  }
  /** Takes up what an earlier process left in the store, then sends it. */
  async restore() {
    let stored;
    try {
      stored = await this.#options.store.load();
    } catch (error2) {
      this.#options.onError("loading pending messages", error2);
      return;
    }
    for (const request3 of parseStored(stored)) {
      const key = keyOf(request3);
      const list = this.#pending.get(key) ?? [];
      if (!list.some((queued) => queued.message?.id === request3.message?.id)) list.push(request3);
      this.#pending.set(key, list.sort(byTime));
    }
    await this.flushAll();
  }
  /** Drops the waiting messages that `deleted` matches (deleted messages, a cleared room); returns how many. */
  async drop(deleted) {
    let dropped2 = 0;
    for (const [key, list] of this.#pending) {
      const kept = list.filter((request3) => !deleted(request3));
      dropped2 += list.length - kept.length;
      if (kept.length > 0) this.#pending.set(key, kept);
      else this.#pending.delete(key);
    }
    if (dropped2 > 0) await this.#save();
    return dropped2;
  }
  /** Stops the quiet timers (call after flushAll at shutdown). */
  close() {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
  async #sendAll(key) {
    const results = /* @__PURE__ */ new Map();
    const limits = await this.#limits();
    for (; ; ) {
      const batch = (this.#pending.get(key) ?? []).slice(0, limits.maxBatchMessages);
      if (batch.length === 0) return results;
      let response;
      try {
        response = await this.#options.send(mergeBatch(batch, limits));
      } catch (error2) {
        if (isTransient(error2)) {
          this.#arm(key);
        } else if (isFinal(error2)) {
          await this.#remove(key, batch);
        }
        throw error2;
      }
      batch.forEach((request3, i) => {
        const result = response.results[i];
        if (result && request3.message) results.set(request3.message.id, result);
      });
      await this.#remove(key, batch);
    }
  }
  #limits() {
    return this.#options.limits ? this.#options.limits() : Promise.resolve(DEFAULT_LIMITS);
  }
  /** Takes a sent (or given up) batch out of the queue and the store. */
  async #remove(key, batch) {
    const sent = new Set(batch.map((request3) => request3.message?.id));
    const rest = (this.#pending.get(key) ?? []).filter((request3) => !sent.has(request3.message?.id));
    if (rest.length > 0) this.#pending.set(key, rest);
    else this.#pending.delete(key);
    await this.#save();
  }
  #arm(key) {
    if (this.#closed || this.#options.quietMs <= 0) return;
    clearTimeout(this.#timers.get(key));
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.flush(key).catch((error2) => this.#options.onError("EvaluateBatch", error2));
    }, this.#options.quietMs);
    timer.unref();
    this.#timers.set(key, timer);
  }
  /** Writes the whole queue, one write at a time, in order. */
  #save() {
    const snapshot = {
      version: STORE_VERSION,
      requests: [...this.#pending.values()].flat().map((request3) => toJson(EvaluateRequestSchema, request3))
    };
    this.#saved = this.#saved.then(() => this.#options.store.save(snapshot)).catch((error2) => this.#options.onError("saving pending messages", error2));
    return this.#saved;
  }
};
function mergeBatch(requests, limits = DEFAULT_LIMITS) {
  const last = requests[requests.length - 1];
  const items = new Set(requests.flatMap((request3) => request3.items));
  const responses = /* @__PURE__ */ new Map();
  for (const response of requests.flatMap((request3) => request3.agentResponses)) {
    responses.set(response.id, response);
  }
  return create(EvaluateBatchRequestSchema, {
    agentId: last.agentId,
    entityId: last.entityId,
    roomId: last.roomId,
    messages: requests.flatMap((request3) => request3.message ? [request3.message] : []),
    // The room as it was at the newest message holds the earlier ones; the service skips the batch's own.
    recentMessages: last.recentMessages,
    items: [...items].sort((a, b) => a - b),
    roomEntities: last.roomEntities,
    agentResponses: [...responses.values()].slice(-limits.maxRecentMessages),
    didRespond: requests.some((request3) => request3.didRespond),
    // One person in one room: one world; the roles as they were at the newest message.
    worldId: last.worldId,
    speakerRoles: last.speakerRoles,
    worldName: last.worldName
  });
}
function keyOf(request3) {
  return `${request3.entityId}:${request3.roomId}`;
}
function byTime(a, b) {
  const at = (request3) => Number(request3.message?.createdAt?.seconds ?? 0n);
  return at(a) - at(b);
}
function parseStored(stored) {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return [];
  if (stored["version"] !== STORE_VERSION || !Array.isArray(stored["requests"])) return [];
  const out = [];
  for (const json of stored["requests"]) {
    try {
      const request3 = fromJson(EvaluateRequestSchema, json);
      if (request3.message?.id) out.push(request3);
    } catch {
    }
  }
  return out;
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/validate-trailer.js
function validateTrailer(trailer, header2) {
  const err = findTrailerError(trailer);
  if (err) {
    header2.forEach((value, key) => {
      err.metadata.append(key, value);
    });
    throw err;
  }
  if (!header2.has(headerGrpcStatus) && !trailer.has(headerGrpcStatus)) {
    throw new ConnectError("protocol error: missing status", Code.Internal);
  }
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/http-status.js
function codeFromHttpStatus(httpStatus) {
  switch (httpStatus) {
    case 400:
      return Code.Internal;
    case 401:
      return Code.Unauthenticated;
    case 403:
      return Code.PermissionDenied;
    case 404:
      return Code.Unimplemented;
    case 429:
      return Code.Unavailable;
    case 502:
      return Code.Unavailable;
    case 503:
      return Code.Unavailable;
    case 504:
      return Code.Unavailable;
    default:
      return Code.Unknown;
  }
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/request-header.js
function requestHeader(useBinaryFormat, timeoutMs, userProvidedHeaders) {
  const result = new Headers(userProvidedHeaders !== null && userProvidedHeaders !== void 0 ? userProvidedHeaders : {});
  result.set(headerContentType, useBinaryFormat ? contentTypeProto : contentTypeJson);
  if (!result.has(headerUserAgent)) {
    result.set(headerUserAgent, "connect-es/2.1.2");
  }
  if (timeoutMs !== void 0) {
    result.set(headerTimeout, `${timeoutMs}m`);
  }
  result.set("Te", "trailers");
  return result;
}
function requestHeaderWithCompression(useBinaryFormat, timeoutMs, userProvidedHeaders, acceptCompression, sendCompression) {
  const result = requestHeader(useBinaryFormat, timeoutMs, userProvidedHeaders);
  if (sendCompression != null) {
    result.set(headerEncoding, sendCompression.name);
  }
  if (acceptCompression.length > 0) {
    result.set(headerAcceptEncoding, acceptCompression.map((c) => c.name).join(","));
  }
  return result;
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/validate-response.js
function validateResponse(status, headers) {
  if (status != 200) {
    throw new ConnectError(`HTTP ${status}`, codeFromHttpStatus(status), headers);
  }
  const mimeType = headers.get(headerContentType);
  const parsedType = parseContentType(mimeType);
  if (parsedType == void 0) {
    throw new ConnectError(`unsupported content type ${mimeType}`, Code.Unknown);
  }
  return {
    foundStatus: headers.has(headerGrpcStatus),
    headerError: findTrailerError(headers)
  };
}
function validateResponseWithCompression(acceptCompression, status, headers) {
  const { foundStatus, headerError } = validateResponse(status, headers);
  let compression;
  const encoding = headers.get(headerEncoding);
  if (encoding !== null && encoding.toLowerCase() !== "identity") {
    compression = acceptCompression.find((c) => c.name === encoding);
    if (!compression) {
      throw new ConnectError(`unsupported response encoding "${encoding}"`, Code.Internal, headers);
    }
  }
  return {
    foundStatus,
    compression,
    headerError
  };
}

// node_modules/@connectrpc/connect/dist/esm/protocol-grpc/transport.js
var __asyncValues3 = function(o) {
  if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
  var m = o[Symbol.asyncIterator], i;
  return m ? m.call(o) : (o = typeof __values === "function" ? __values(o) : o[Symbol.iterator](), i = {}, verb("next"), verb("throw"), verb("return"), i[Symbol.asyncIterator] = function() {
    return this;
  }, i);
  function verb(n) {
    i[n] = o[n] && function(v) {
      return new Promise(function(resolve, reject) {
        v = o[n](v), settle(resolve, reject, v.done, v.value);
      });
    };
  }
  function settle(resolve, reject, d, v) {
    Promise.resolve(v).then(function(v2) {
      resolve({ value: v2, done: d });
    }, reject);
  }
};
var __await3 = function(v) {
  return this instanceof __await3 ? (this.v = v, this) : new __await3(v);
};
var __asyncDelegator3 = function(o) {
  var i, p;
  return i = {}, verb("next"), verb("throw", function(e) {
    throw e;
  }), verb("return"), i[Symbol.iterator] = function() {
    return this;
  }, i;
  function verb(n, f) {
    i[n] = o[n] ? function(v) {
      return (p = !p) ? { value: __await3(o[n](v)), done: false } : f ? f(v) : v;
    } : f;
  }
};
var __asyncGenerator3 = function(thisArg, _arguments, generator) {
  if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
  var g = generator.apply(thisArg, _arguments || []), i, q = [];
  return i = Object.create((typeof AsyncIterator === "function" ? AsyncIterator : Object).prototype), verb("next"), verb("throw"), verb("return", awaitReturn), i[Symbol.asyncIterator] = function() {
    return this;
  }, i;
  function awaitReturn(f) {
    return function(v) {
      return Promise.resolve(v).then(f, reject);
    };
  }
  function verb(n, f) {
    if (g[n]) {
      i[n] = function(v) {
        return new Promise(function(a, b) {
          q.push([n, v, a, b]) > 1 || resume(n, v);
        });
      };
      if (f) i[n] = f(i[n]);
    }
  }
  function resume(n, v) {
    try {
      step(g[n](v));
    } catch (e) {
      settle(q[0][3], e);
    }
  }
  function step(r) {
    r.value instanceof __await3 ? Promise.resolve(r.value.v).then(fulfill, reject) : settle(q[0][2], r);
  }
  function fulfill(value) {
    resume("next", value);
  }
  function reject(value) {
    resume("throw", value);
  }
  function settle(f, v) {
    if (f(v), q.shift(), q.length) resume(q[0][0], q[0][1]);
  }
};
function createTransport(opt) {
  return {
    async unary(method, signal, timeoutMs, header2, message, contextValues) {
      const serialization = createMethodSerializationLookup(method, opt.binaryOptions, opt.jsonOptions, opt);
      timeoutMs = timeoutMs === void 0 ? opt.defaultTimeoutMs : timeoutMs <= 0 ? void 0 : timeoutMs;
      return await runUnaryCall({
        interceptors: opt.interceptors,
        signal,
        timeoutMs,
        req: {
          stream: false,
          service: method.parent,
          method,
          requestMethod: "POST",
          url: createMethodUrl(opt.baseUrl, method),
          header: requestHeaderWithCompression(opt.useBinaryFormat, timeoutMs, header2, opt.acceptCompression, opt.sendCompression),
          contextValues: contextValues !== null && contextValues !== void 0 ? contextValues : createContextValues(),
          message
        },
        next: async (req) => {
          const uRes = await opt.httpClient({
            url: req.url,
            method: "POST",
            header: req.header,
            signal: req.signal,
            body: pipe(createAsyncIterable([req.message]), transformSerializeEnvelope(serialization.getI(opt.useBinaryFormat)), transformCompressEnvelope(opt.sendCompression, opt.compressMinBytes), transformJoinEnvelopes(), {
              propagateDownStreamError: true
            })
          });
          const { compression, headerError } = validateResponseWithCompression(opt.acceptCompression, uRes.status, uRes.header);
          const message2 = await pipeTo(uRes.body, transformSplitEnvelope(opt.readMaxBytes), transformDecompressEnvelope(compression !== null && compression !== void 0 ? compression : null, opt.readMaxBytes), transformParseEnvelope(serialization.getO(opt.useBinaryFormat)), async (iterable) => {
            var _a, e_1, _b, _c;
            let message3;
            try {
              for (var _d = true, iterable_1 = __asyncValues3(iterable), iterable_1_1; iterable_1_1 = await iterable_1.next(), _a = iterable_1_1.done, !_a; _d = true) {
                _c = iterable_1_1.value;
                _d = false;
                const chunk = _c;
                if (message3 !== void 0) {
                  throw new ConnectError("protocol error: received extra output message for unary method", Code.Unimplemented);
                }
                message3 = chunk;
              }
            } catch (e_1_1) {
              e_1 = { error: e_1_1 };
            } finally {
              try {
                if (!_d && !_a && (_b = iterable_1.return)) await _b.call(iterable_1);
              } finally {
                if (e_1) throw e_1.error;
              }
            }
            return message3;
          }, { propagateDownStreamError: false });
          validateTrailer(uRes.trailer, uRes.header);
          if (message2 === void 0) {
            if (headerError) {
              throw headerError;
            }
            throw new ConnectError("protocol error: missing output message for unary method", uRes.trailer.has(headerGrpcStatus) ? Code.Unimplemented : Code.Unknown);
          }
          if (headerError) {
            throw new ConnectError("protocol error: received output message for unary method with error status", Code.Unknown);
          }
          return {
            stream: false,
            service: method.parent,
            method,
            header: uRes.header,
            message: message2,
            trailer: uRes.trailer
          };
        }
      });
    },
    async stream(method, signal, timeoutMs, header2, input, contextValues) {
      const serialization = createMethodSerializationLookup(method, opt.binaryOptions, opt.jsonOptions, opt);
      timeoutMs = timeoutMs === void 0 ? opt.defaultTimeoutMs : timeoutMs <= 0 ? void 0 : timeoutMs;
      return runStreamingCall({
        interceptors: opt.interceptors,
        signal,
        timeoutMs,
        req: {
          stream: true,
          service: method.parent,
          method,
          requestMethod: "POST",
          url: createMethodUrl(opt.baseUrl, method),
          header: requestHeaderWithCompression(opt.useBinaryFormat, timeoutMs, header2, opt.acceptCompression, opt.sendCompression),
          contextValues: contextValues !== null && contextValues !== void 0 ? contextValues : createContextValues(),
          message: input
        },
        next: async (req) => {
          const uRes = await opt.httpClient({
            url: req.url,
            method: "POST",
            header: req.header,
            signal: req.signal,
            body: pipe(req.message, transformSerializeEnvelope(serialization.getI(opt.useBinaryFormat)), transformCompressEnvelope(opt.sendCompression, opt.compressMinBytes), transformJoinEnvelopes(), { propagateDownStreamError: true })
          });
          const { compression, foundStatus, headerError } = validateResponseWithCompression(opt.acceptCompression, uRes.status, uRes.header);
          if (headerError) {
            throw headerError;
          }
          const res = Object.assign(Object.assign({}, req), { header: uRes.header, trailer: uRes.trailer, message: pipe(uRes.body, transformSplitEnvelope(opt.readMaxBytes), transformDecompressEnvelope(compression !== null && compression !== void 0 ? compression : null, opt.readMaxBytes), transformParseEnvelope(serialization.getO(opt.useBinaryFormat)), function(iterable) {
            return __asyncGenerator3(this, arguments, function* () {
              yield __await3(yield* __asyncDelegator3(__asyncValues3(iterable)));
              if (!foundStatus) {
                validateTrailer(uRes.trailer, uRes.header);
              }
            });
          }, { propagateDownStreamError: true }) });
          return res;
        }
      });
    }
  };
}

// node_modules/@connectrpc/connect-node/dist/esm/compression.js
import * as zlib from "node:zlib";
import { promisify } from "node:util";

// node_modules/@connectrpc/connect-node/dist/esm/node-error.js
function connectErrorFromNodeReason(reason) {
  let code = Code.Internal;
  const chain = unwrapNodeErrorChain(reason).map(getNodeErrorProps);
  if (chain.some((p) => p.code == "ERR_STREAM_WRITE_AFTER_END")) {
    code = Code.Aborted;
  } else if (chain.some((p) => p.code == "ERR_STREAM_DESTROYED" || p.code == "ERR_HTTP2_INVALID_STREAM" || p.code == "ECONNRESET")) {
    code = Code.Aborted;
  } else if (chain.some((p) => p.code == "ETIMEDOUT" || p.code == "ENOTFOUND" || p.code == "EAI_AGAIN" || p.code == "ECONNREFUSED")) {
    code = Code.Unavailable;
  }
  const ce = ConnectError.from(reason, code);
  if (ce !== reason) {
    ce.cause = reason;
  }
  return ce;
}
function unwrapNodeErrorChain(reason) {
  const chain = [];
  for (; ; ) {
    if (!(reason instanceof Error)) {
      break;
    }
    if (chain.includes(reason)) {
      break;
    }
    chain.push(reason);
    if (!("cause" in reason)) {
      break;
    }
    reason = reason.cause;
  }
  return chain;
}
function getNodeErrorProps(reason) {
  const props = {};
  if (reason instanceof Error) {
    if ("code" in reason && typeof reason.code == "string") {
      props.code = reason.code;
    }
    if ("syscall" in reason && typeof reason.syscall == "string") {
      props.syscall = reason.syscall;
    }
  }
  return props;
}
function connectErrorFromH2ResetCode(rstCode) {
  switch (rstCode) {
    case H2Code.PROTOCOL_ERROR:
    case H2Code.INTERNAL_ERROR:
    case H2Code.FLOW_CONTROL_ERROR:
    case H2Code.SETTINGS_TIMEOUT:
    case H2Code.FRAME_SIZE_ERROR:
    case H2Code.COMPRESSION_ERROR:
    case H2Code.CONNECT_ERROR:
      return new ConnectError(`http/2 stream closed with error code ${H2Code[rstCode]} (0x${rstCode.toString(16)})`, Code.Internal);
    case H2Code.REFUSED_STREAM:
      return new ConnectError(`http/2 stream closed with error code ${H2Code[rstCode]} (0x${rstCode.toString(16)})`, Code.Unavailable);
    case H2Code.CANCEL:
      return new ConnectError(`http/2 stream closed with error code ${H2Code[rstCode]} (0x${rstCode.toString(16)})`, Code.Canceled);
    case H2Code.ENHANCE_YOUR_CALM:
      return new ConnectError(`http/2 stream closed with error code ${H2Code[rstCode]} (0x${rstCode.toString(16)})`, Code.ResourceExhausted);
    case H2Code.INADEQUATE_SECURITY:
      return new ConnectError(`http/2 stream closed with error code ${H2Code[rstCode]} (0x${rstCode.toString(16)})`, Code.PermissionDenied);
    case H2Code.HTTP_1_1_REQUIRED:
      return new ConnectError(`http/2 stream closed with error code ${H2Code[rstCode]} (0x${rstCode.toString(16)})`, Code.PermissionDenied);
    default:
      break;
  }
  return void 0;
}
var H2Code;
(function(H2Code2) {
  H2Code2[H2Code2["PROTOCOL_ERROR"] = 1] = "PROTOCOL_ERROR";
  H2Code2[H2Code2["INTERNAL_ERROR"] = 2] = "INTERNAL_ERROR";
  H2Code2[H2Code2["FLOW_CONTROL_ERROR"] = 3] = "FLOW_CONTROL_ERROR";
  H2Code2[H2Code2["SETTINGS_TIMEOUT"] = 4] = "SETTINGS_TIMEOUT";
  H2Code2[H2Code2["STREAM_CLOSED"] = 5] = "STREAM_CLOSED";
  H2Code2[H2Code2["FRAME_SIZE_ERROR"] = 6] = "FRAME_SIZE_ERROR";
  H2Code2[H2Code2["REFUSED_STREAM"] = 7] = "REFUSED_STREAM";
  H2Code2[H2Code2["CANCEL"] = 8] = "CANCEL";
  H2Code2[H2Code2["COMPRESSION_ERROR"] = 9] = "COMPRESSION_ERROR";
  H2Code2[H2Code2["CONNECT_ERROR"] = 10] = "CONNECT_ERROR";
  H2Code2[H2Code2["ENHANCE_YOUR_CALM"] = 11] = "ENHANCE_YOUR_CALM";
  H2Code2[H2Code2["INADEQUATE_SECURITY"] = 12] = "INADEQUATE_SECURITY";
  H2Code2[H2Code2["HTTP_1_1_REQUIRED"] = 13] = "HTTP_1_1_REQUIRED";
})(H2Code || (H2Code = {}));

// node_modules/@connectrpc/connect-node/dist/esm/compression.js
var gzip2 = promisify(zlib.gzip);
var gunzip2 = promisify(zlib.gunzip);
var brotliCompress2 = promisify(zlib.brotliCompress);
var brotliDecompress2 = promisify(zlib.brotliDecompress);
var compressionGzip = {
  name: "gzip",
  compress(bytes) {
    return asUint8ArrayArrayBuffer(gzip2(bytes, {}));
  },
  decompress(bytes, readMaxBytes) {
    if (bytes.length == 0) {
      return Promise.resolve(new Uint8Array(0));
    }
    return asUint8ArrayArrayBuffer(wrapZLibErrors(gunzip2(bytes, {
      maxOutputLength: readMaxBytes
    }), readMaxBytes));
  }
};
var compressionBrotli = {
  name: "br",
  compress(bytes) {
    return asUint8ArrayArrayBuffer(brotliCompress2(bytes, {}));
  },
  decompress(bytes, readMaxBytes) {
    if (bytes.length == 0) {
      return Promise.resolve(new Uint8Array(0));
    }
    return asUint8ArrayArrayBuffer(wrapZLibErrors(brotliDecompress2(bytes, {
      maxOutputLength: readMaxBytes
    }), readMaxBytes));
  }
};
function asUint8ArrayArrayBuffer(bytes) {
  return bytes.then((b) => {
    if (b.buffer instanceof ArrayBuffer) {
      return b;
    }
    return new Uint8Array(b);
  });
}
function wrapZLibErrors(promise, readMaxBytes) {
  return promise.catch((e) => {
    var _a;
    const props = getNodeErrorProps(e);
    let code = Code.Internal;
    let message = "decompression failed";
    switch (props.code) {
      case "ERR_BUFFER_TOO_LARGE":
        code = Code.ResourceExhausted;
        message = `message is larger than configured readMaxBytes ${readMaxBytes} after decompression`;
        break;
      case "Z_DATA_ERROR":
      case "ERR_PADDING_2":
        code = Code.InvalidArgument;
        break;
      default:
        if ((_a = props.code) === null || _a === void 0 ? void 0 : _a.startsWith("ERR__ERROR_FORMAT_")) {
          code = Code.InvalidArgument;
        }
        break;
    }
    return Promise.reject(new ConnectError(message, code, void 0, void 0, e));
  });
}

// node_modules/@connectrpc/connect-node/dist/esm/node-universal-client.js
import * as http from "node:http";
import * as https from "node:https";

// node_modules/@connectrpc/connect-node/dist/esm/node-universal-header.js
function nodeHeaderToWebHeader(nodeHeaders) {
  const header2 = new Headers();
  for (const [k, v] of Object.entries(nodeHeaders)) {
    if (k.startsWith(":")) {
      continue;
    }
    if (v === void 0) {
      continue;
    }
    if (typeof v == "string") {
      header2.append(k, v);
    } else if (typeof v == "number") {
      header2.append(k, String(v));
    } else {
      for (const e of v) {
        header2.append(k, e);
      }
    }
  }
  return header2;
}
function webHeaderToNodeHeaders(headersInit, defaultNodeHeaders) {
  if (headersInit === void 0 && defaultNodeHeaders === void 0) {
    return void 0;
  }
  const o = /* @__PURE__ */ Object.create(null);
  if (defaultNodeHeaders !== void 0) {
    if (Array.isArray(defaultNodeHeaders)) {
      for (let i = 0; i + 1 < defaultNodeHeaders.length; i += 2) {
        const key = defaultNodeHeaders[i];
        const value = defaultNodeHeaders[i + 1];
        if (Array.isArray(o[key])) {
          o[key].push(value);
        } else if (typeof o[key] == "string") {
          o[key] = [o[key], value];
        } else {
          o[key] = value;
        }
      }
    } else {
      for (const [key, value] of Object.entries(defaultNodeHeaders)) {
        if (Array.isArray(value)) {
          o[key] = value.concat();
        } else if (value !== void 0) {
          o[key] = value;
        }
      }
    }
  }
  if (headersInit !== void 0) {
    if (Array.isArray(headersInit)) {
      for (const [key, value] of headersInit) {
        appendWebHeader(o, key, value);
      }
    } else if ("forEach" in headersInit) {
      if (typeof headersInit.forEach == "function") {
        headersInit.forEach((value, key) => {
          appendWebHeader(o, key, value);
        });
      }
    } else {
      for (const [key, value] of Object.entries(headersInit)) {
        appendWebHeader(o, key, value);
      }
    }
  }
  return o;
}
function appendWebHeader(o, key, value) {
  key = key.toLowerCase();
  const existing = o[key];
  if (Array.isArray(existing)) {
    existing.push(value);
  } else if (existing === void 0) {
    o[key] = value;
  } else {
    o[key] = [existing.toString(), value];
  }
}

// node_modules/@connectrpc/connect-node/dist/esm/http2-session-manager.js
import * as http2 from "node:http2";
var Http2SessionManager = class {
  /**
   * The current state of the connection:
   *
   * - "closed"
   *   The connection is closed, or no connection has been opened yet.
   * - connecting
   *   Currently establishing a connection.
   *
   * - "open"
   *   A connection is open and has open streams. PING frames are sent every
   *   pingIntervalMs, unless a stream received data.
   *   If a PING frame is not responded to within pingTimeoutMs, the connection
   *   and all open streams close.
   *
   * - "idle"
   *   A connection is open, but it does not have any open streams.
   *   If pingIdleConnection is enabled, PING frames are used to keep the
   *   connection alive, similar to an "open" connection.
   *   If a connection is idle for longer than idleConnectionTimeoutMs, it closes.
   *   If a request is made on an idle connection that has not been used for
   *   longer than pingIntervalMs, the connection is verified.
   *
   * - "verifying"
   *   Verifying a connection after a long period of inactivity before issuing a
   *   request. A PING frame is sent, and if it times out within pingTimeoutMs, a
   *   new connection is opened.
   *
   * - "error"
   *   The connection is closed because of a transient error. A connection
   *   may have failed to reach the host, or the connection may have died,
   *   or it may have been aborted.
   */
  state() {
    if (this.s.t == "ready") {
      if (this.verifying !== void 0) {
        return "verifying";
      }
      return this.s.streamCount() > 0 ? "open" : "idle";
    }
    return this.s.t;
  }
  /**
   * Returns the error object if the connection is in the "error" state,
   * `undefined` otherwise.
   */
  error() {
    if (this.s.t == "error") {
      return this.s.reason;
    }
    return void 0;
  }
  constructor(url, pingOptions, http2SessionOptions) {
    var _a, _b, _c, _d;
    this.s = closed();
    this.shuttingDown = [];
    this.authority = new URL(url).origin;
    this.http2SessionOptions = http2SessionOptions;
    this.options = {
      pingIntervalMs: (_a = pingOptions === null || pingOptions === void 0 ? void 0 : pingOptions.pingIntervalMs) !== null && _a !== void 0 ? _a : Number.POSITIVE_INFINITY,
      pingTimeoutMs: (_b = pingOptions === null || pingOptions === void 0 ? void 0 : pingOptions.pingTimeoutMs) !== null && _b !== void 0 ? _b : 1e3 * 15,
      pingIdleConnection: (_c = pingOptions === null || pingOptions === void 0 ? void 0 : pingOptions.pingIdleConnection) !== null && _c !== void 0 ? _c : false,
      idleConnectionTimeoutMs: (_d = pingOptions === null || pingOptions === void 0 ? void 0 : pingOptions.idleConnectionTimeoutMs) !== null && _d !== void 0 ? _d : 1e3 * 60 * 15
    };
  }
  /**
   * Open a connection if none exists, verify an existing connection if
   * necessary.
   */
  async connect() {
    try {
      const ready2 = await this.gotoReady();
      return ready2.streamCount() > 0 ? "open" : "idle";
    } catch (e) {
      return "error";
    }
  }
  /**
   * Issue a request.
   *
   * This method automatically opens a connection if none exists, and verifies
   * an existing connection if necessary. It calls http2.ClientHttp2Session.request(),
   * and keeps track of all open http2.ClientHttp2Stream.
   *
   * Clients must call notifyResponseByteRead() whenever they successfully read
   * data from the http2.ClientHttp2Stream.
   */
  async request(method, path, headers, options) {
    for (; ; ) {
      const ready2 = await this.gotoReady();
      try {
        const stream = ready2.conn.request(Object.assign(Object.assign({}, headers), { ":method": method, ":path": path }), options);
        ready2.registerRequest(stream);
        return stream;
      } catch (e) {
        if (ready2.conn.closed || ready2.conn.destroyed) {
          continue;
        }
        throw e;
      }
    }
  }
  /**
   * Notify the manager of a successful read from a http2.ClientHttp2Stream.
   *
   * Clients must call this function whenever they successfully read data from
   * a http2.ClientHttp2Stream obtained from request(). This informs the
   * keep-alive logic that the connection is alive, and prevents it from sending
   * unnecessary PING frames.
   */
  notifyResponseByteRead(stream) {
    if (this.s.t == "ready") {
      this.s.responseByteRead(stream);
    }
    for (const s of this.shuttingDown) {
      s.responseByteRead(stream);
    }
  }
  /**
   * If there is an open connection, close it. This also closes any open streams.
   */
  abort(reason) {
    var _a, _b, _c;
    const err = reason !== null && reason !== void 0 ? reason : new ConnectError("connection aborted", Code.Canceled);
    (_b = (_a = this.s).abort) === null || _b === void 0 ? void 0 : _b.call(_a, err);
    for (const s of this.shuttingDown) {
      (_c = s.abort) === null || _c === void 0 ? void 0 : _c.call(s, err);
    }
    this.setState(closedOrError(err));
  }
  async gotoReady() {
    if (this.s.t == "ready") {
      if (this.s.isShuttingDown() || this.s.conn.closed || this.s.conn.destroyed) {
        this.setState(connect2(this.authority, this.http2SessionOptions));
      } else if (this.s.requiresVerify()) {
        await this.verify(this.s);
      }
    } else if (this.s.t == "closed" || this.s.t == "error") {
      this.setState(connect2(this.authority, this.http2SessionOptions));
    }
    while (this.s.t !== "ready") {
      if (this.s.t === "error") {
        throw this.s.reason;
      }
      if (this.s.t === "connecting") {
        await this.s.conn;
      }
    }
    return this.s;
  }
  setState(state) {
    var _a, _b;
    (_b = (_a = this.s).onExitState) === null || _b === void 0 ? void 0 : _b.call(_a);
    if (this.s.t == "ready" && this.s.isShuttingDown()) {
      const sd = this.s;
      this.shuttingDown.push(sd);
      sd.onClose = sd.onError = () => {
        const i = this.shuttingDown.indexOf(sd);
        if (i !== -1) {
          this.shuttingDown.splice(i, 1);
        }
      };
    }
    switch (state.t) {
      case "connecting":
        state.conn.then((value) => {
          this.setState(ready(value, this.options));
        }, (reason) => {
          this.setState(closedOrError(reason));
        });
        break;
      case "ready":
        state.onClose = () => this.setState(closed());
        state.onError = (err) => this.setState(closedOrError(err));
        break;
      case "closed":
        break;
      case "error":
        break;
    }
    this.s = state;
  }
  verify(stateReady) {
    if (this.verifying !== void 0) {
      return this.verifying;
    }
    this.verifying = stateReady.verify().then((success2) => {
      if (success2) {
        return;
      }
      this.setState(connect2(this.authority, this.http2SessionOptions));
    }, (reason) => {
      this.setState(closedOrError(reason));
    }).finally(() => {
      this.verifying = void 0;
    });
    return this.verifying;
  }
};
function closed() {
  return {
    t: "closed"
  };
}
function error(reason) {
  return {
    t: "error",
    reason
  };
}
function closedOrError(reason) {
  const isCancel = reason instanceof ConnectError && ConnectError.from(reason).code == Code.Canceled;
  return isCancel ? closed() : error(reason);
}
function connect2(authority, http2SessionOptions) {
  let resolve;
  let reject;
  const conn = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const newConn = http2.connect(authority, http2SessionOptions);
  newConn.on("connect", onConnect);
  newConn.on("error", onError);
  function onConnect() {
    resolve === null || resolve === void 0 ? void 0 : resolve(newConn);
    cleanup();
  }
  function onError(err) {
    reject === null || reject === void 0 ? void 0 : reject(connectErrorFromNodeReason(err));
    cleanup();
  }
  function cleanup() {
    newConn.off("connect", onConnect);
    newConn.off("error", onError);
  }
  return {
    t: "connecting",
    conn,
    abort(reason) {
      if (!newConn.destroyed) {
        newConn.destroy(void 0, http2.constants.NGHTTP2_CANCEL);
      }
      reject === null || reject === void 0 ? void 0 : reject(reason);
    },
    onExitState() {
      cleanup();
    }
  };
}
function ready(conn, options) {
  assertSessionOpen(conn);
  conn.unref();
  let lastAliveAt = Date.now();
  let streamCount = 0;
  let pingIntervalId;
  let pingTimeoutId;
  let receivedGoAway = false;
  let receivedGoAwayEnhanceYourCalmTooManyPings = false;
  let idleTimeoutId;
  resetIdleTimeout();
  const state = {
    t: "ready",
    conn,
    streamCount() {
      return streamCount;
    },
    requiresVerify() {
      const elapsedMs = Date.now() - lastAliveAt;
      return elapsedMs > options.pingIntervalMs;
    },
    isShuttingDown() {
      return receivedGoAway;
    },
    onClose: void 0,
    onError: void 0,
    registerRequest(stream) {
      streamCount++;
      if (streamCount == 1) {
        conn.ref();
        resetPingInterval();
        stopIdleTimeout();
      }
      stream.once("response", () => {
        lastAliveAt = Date.now();
        resetPingInterval();
      });
      stream.once("close", () => {
        streamCount--;
        if (streamCount == 0) {
          conn.unref();
          resetPingInterval();
          resetIdleTimeout();
        }
      });
    },
    responseByteRead(stream) {
      if (stream.session !== conn) {
        return;
      }
      if (conn.closed || conn.destroyed) {
        return;
      }
      if (streamCount <= 0) {
        return;
      }
      lastAliveAt = Date.now();
      resetPingInterval();
    },
    verify() {
      conn.ref();
      return new Promise((resolve) => {
        const onError2 = () => {
          resolve(false);
        };
        commonPing(() => {
          if (streamCount == 0)
            conn.unref();
          conn.off("error", onError2);
          resolve(true);
        });
        conn.once("error", onError2);
      });
    },
    abort(reason) {
      if (!conn.destroyed) {
        conn.once("error", () => {
        });
        conn.destroy(reason, http2.constants.NGHTTP2_CANCEL);
      }
    },
    onExitState() {
      if (state.isShuttingDown()) {
        return;
      }
      cleanup();
      this.onError = void 0;
      this.onClose = void 0;
    }
  };
  function resetPingInterval() {
    stopPingInterval();
    if (streamCount > 0 || options.pingIdleConnection) {
      pingIntervalId = safeSetTimeout(onPingInterval, options.pingIntervalMs);
    }
  }
  function stopPingInterval() {
    clearTimeout(pingIntervalId);
    clearTimeout(pingTimeoutId);
  }
  function onPingInterval() {
    commonPing(resetPingInterval);
  }
  function commonPing(onSuccess) {
    clearTimeout(pingTimeoutId);
    pingTimeoutId = safeSetTimeout(() => {
      conn.destroy(new ConnectError("PING timed out", Code.Unavailable), http2.constants.NGHTTP2_CANCEL);
    }, options.pingTimeoutMs);
    conn.ping((err, duration) => {
      clearTimeout(pingTimeoutId);
      if (err !== null) {
        return;
      }
      if (duration > options.pingTimeoutMs) {
        conn.destroy(new ConnectError("PING timed out", Code.Unavailable), http2.constants.NGHTTP2_CANCEL);
        return;
      }
      lastAliveAt = Date.now();
      onSuccess();
    });
  }
  function stopIdleTimeout() {
    clearTimeout(idleTimeoutId);
  }
  function resetIdleTimeout() {
    idleTimeoutId = safeSetTimeout(onIdleTimeout, options.idleConnectionTimeoutMs);
  }
  function onIdleTimeout() {
    conn.close();
    onClose();
  }
  function onGoaway(errorCode, lastStreamID, opaqueData) {
    if (errorCode === http2.constants.NGHTTP2_NO_ERROR && streamCount === 0) {
      conn.destroy(new ConnectError("received GOAWAY without any open streams", Code.Canceled), http2.constants.NGHTTP2_NO_ERROR);
      return;
    }
    receivedGoAway = true;
    const tooManyPingsAscii = Buffer.from("too_many_pings", "ascii");
    if (opaqueData === null || opaqueData === void 0 ? void 0 : opaqueData.equals(tooManyPingsAscii)) {
      options.pingIntervalMs = options.pingIntervalMs * 2;
      receivedGoAwayEnhanceYourCalmTooManyPings = true;
    }
  }
  function onClose() {
    var _a;
    cleanup();
    (_a = state.onClose) === null || _a === void 0 ? void 0 : _a.call(state);
  }
  function onError(err) {
    var _a, _b;
    cleanup();
    if (receivedGoAwayEnhanceYourCalmTooManyPings) {
      const ce = new ConnectError(`http/2 connection closed with error code ENHANCE_YOUR_CALM (0x${http2.constants.NGHTTP2_ENHANCE_YOUR_CALM.toString(16)}), too_many_pings, doubled the interval`, Code.ResourceExhausted);
      (_a = state.onError) === null || _a === void 0 ? void 0 : _a.call(state, ce);
    } else {
      (_b = state.onError) === null || _b === void 0 ? void 0 : _b.call(state, connectErrorFromNodeReason(err));
    }
  }
  function cleanup() {
    stopPingInterval();
    stopIdleTimeout();
    conn.off("error", onError);
    conn.off("close", onClose);
    conn.off("goaway", onGoaway);
  }
  conn.on("error", onError);
  conn.on("close", onClose);
  conn.on("goaway", onGoaway);
  return state;
}
function safeSetTimeout(callback, ms) {
  if (ms > 2147483647) {
    return;
  }
  return setTimeout(callback, ms).unref();
}
function assertSessionOpen(conn) {
  if (conn.connecting) {
    throw new ConnectError("expected open session, but it is connecting", Code.Internal);
  }
  if (conn.destroyed) {
    throw new ConnectError("expected open session, but it is destroyed", Code.Internal);
  }
  if (conn.closed) {
    throw new ConnectError("expected open session, but it is closed", Code.Internal);
  }
}

// node_modules/@connectrpc/connect-node/dist/esm/node-universal-client.js
function createNodeHttpClient(options) {
  var _a;
  if (options.httpVersion == "1.1") {
    return createNodeHttp1Client(options.nodeOptions);
  }
  const sessionProvider = (_a = options.sessionProvider) !== null && _a !== void 0 ? _a : ((url) => new Http2SessionManager(url));
  return createNodeHttp2Client(sessionProvider);
}
function createNodeHttp1Client(httpOptions) {
  return async function request3(req) {
    const sentinel = createSentinel(req.signal);
    return new Promise((resolve, reject) => {
      sentinel.onError((e) => {
        reject(e);
      });
      h1Request(sentinel, req.url, Object.assign(Object.assign({}, httpOptions), { headers: webHeaderToNodeHeaders(req.header, httpOptions === null || httpOptions === void 0 ? void 0 : httpOptions.headers), method: req.method }), (request4) => {
        void sinkRequest(req, request4, sentinel);
        request4.on("response", (response) => {
          var _a;
          response.on("error", sentinel.error);
          sentinel.onError((reason) => response.destroy(reason));
          const trailer = new Headers();
          resolve({
            status: (_a = response.statusCode) !== null && _a !== void 0 ? _a : 0,
            header: nodeHeaderToWebHeader(response.headers),
            body: h1ResponseIterable(sentinel, response, trailer),
            trailer
          });
        });
      });
    });
  };
}
function createNodeHttp2Client(sessionProvider) {
  return function request3(req) {
    const sentinel = createSentinel(req.signal);
    const sessionManager = sessionProvider(req.url);
    return new Promise((resolve, reject) => {
      sentinel.onError((e) => {
        reject(e);
      });
      h2Request(sentinel, sessionManager, req.url, req.method, webHeaderToNodeHeaders(req.header), {}, (stream) => {
        void sinkRequest(req, stream, sentinel);
        stream.on("response", (headers) => {
          var _a;
          const response = {
            status: (_a = headers[":status"]) !== null && _a !== void 0 ? _a : 0,
            header: nodeHeaderToWebHeader(headers),
            body: h2ResponseIterable(sentinel, stream, sessionManager),
            trailer: h2ResponseTrailer(stream)
          };
          resolve(response);
        });
      });
    });
  };
}
function h1Request(sentinel, url, options, onRequest) {
  let request3;
  if (new URL(url).protocol.startsWith("https")) {
    request3 = https.request(url, options);
  } else {
    request3 = http.request(url, options);
  }
  sentinel.onError((reason) => request3.destroy(reason));
  request3.flushHeaders();
  request3.on("error", sentinel.error);
  request3.on("socket", function onRequestSocket(socket) {
    function onSocketConnect() {
      socket.off("connect", onSocketConnect);
      onRequest(request3);
    }
    if (socket.readyState === "open") {
      onRequest(request3);
    } else {
      socket.on("connect", onSocketConnect);
    }
  });
}
function h1ResponseIterable(sentinel, response, trailer) {
  const inner = response[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          const r = await sentinel.race(inner.next());
          if (r.done === true) {
            nodeHeaderToWebHeader(response.trailers).forEach((value, key) => {
              trailer.set(key, value);
            });
            sentinel.close();
          }
          return r;
        },
        throw(e) {
          sentinel.error(e);
          throw e;
        }
      };
    }
  };
}
function h2Request(sentinel, sm, url, method, headers, options, onStream) {
  const requestUrl = new URL(url);
  if (requestUrl.origin !== sm.authority) {
    const message = `cannot make a request to ${requestUrl.origin}: the http2 session is connected to ${sm.authority}`;
    sentinel.error(new ConnectError(message, Code.Internal));
    return;
  }
  sm.request(method, requestUrl.pathname + requestUrl.search, headers, {}).then((stream) => {
    sentinel.onError((reason) => {
      if (stream.closed) {
        return;
      }
      const rstCode = reason.code == Code.Canceled ? H2Code.CANCEL : H2Code.INTERNAL_ERROR;
      return new Promise((resolve) => stream.close(rstCode, resolve));
    });
    stream.on("error", function h2StreamError(e) {
      if (stream.writableEnded && unwrapNodeErrorChain(e).map(getNodeErrorProps).some((p) => p.code == "ERR_STREAM_WRITE_AFTER_END")) {
        return;
      }
      sentinel.error(e);
    });
    stream.on("close", function h2StreamClose() {
      const err = connectErrorFromH2ResetCode(stream.rstCode);
      if (err) {
        sentinel.error(err);
      }
    });
    onStream(stream);
  }, (reason) => {
    sentinel.error(reason);
  });
}
function h2ResponseTrailer(response) {
  const trailer = new Headers();
  response.on("trailers", (args) => {
    nodeHeaderToWebHeader(args).forEach((value, key) => {
      trailer.set(key, value);
    });
  });
  return trailer;
}
function h2ResponseIterable(sentinel, response, sm) {
  const inner = response[Symbol.asyncIterator]();
  return {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          const r = await sentinel.race(inner.next());
          if (r.done === true) {
            sentinel.close();
          }
          sm === null || sm === void 0 ? void 0 : sm.notifyResponseByteRead(response);
          return r;
        },
        throw(e) {
          sentinel.error(e);
          throw e;
        }
      };
    }
  };
}
async function sinkRequest(request3, nodeRequest, sentinel) {
  if (request3.body === void 0) {
    await new Promise((resolve) => nodeRequest.end(resolve));
    return;
  }
  const it = request3.body[Symbol.asyncIterator]();
  return new Promise((resolve) => {
    writeNext();
    function writeNext() {
      if (sentinel.isClosed()) {
        return;
      }
      it.next().then((r) => {
        if (r.done === true) {
          nodeRequest.end(resolve);
          return;
        }
        nodeRequest.write(r.value, "binary", (e) => {
          if (e === null || e === void 0) {
            writeNext();
            return;
          }
          if (it.throw !== void 0) {
            it.throw(connectErrorFromNodeReason(e)).catch(() => {
            });
          }
          if (nodeRequest.writableEnded && unwrapNodeErrorChain(e).map(getNodeErrorProps).some((p) => p.code == "ERR_STREAM_WRITE_AFTER_END")) {
            return;
          }
          sentinel.error(e);
        });
      }, (e) => {
        sentinel.error(e);
      });
    }
  });
}
function createSentinel(signal) {
  let rejectRace;
  let closed2 = false;
  let closedError = void 0;
  let onErrorListeners = [];
  const sentinel = {
    error(error2) {
      if (closed2) {
        return;
      }
      closed2 = true;
      closedError = error2 instanceof ConnectError ? error2 : connectErrorFromNodeReason(error2);
      rejectRace === null || rejectRace === void 0 ? void 0 : rejectRace(closedError);
      for (const onRejected of onErrorListeners) {
        onRejected(closedError);
      }
      cleanup();
    },
    close() {
      if (closed2) {
        return;
      }
      closed2 = true;
      if (rejectRace) {
        rejectRace(new ConnectError("sentinel completed early", Code.Internal));
      }
      cleanup();
    },
    isClosed() {
      return closed2;
    },
    onError(onError) {
      if (closed2) {
        if (closedError !== void 0) {
          onError(closedError);
        }
      } else {
        onErrorListeners.push(onError);
      }
    },
    race(promise) {
      let resolveRace;
      const race = new Promise((resolve, reject) => {
        resolveRace = resolve;
        rejectRace = reject;
      });
      promise.then((value) => {
        resolveRace === null || resolveRace === void 0 ? void 0 : resolveRace(value);
      }, (reason) => {
        rejectRace === null || rejectRace === void 0 ? void 0 : rejectRace(reason);
      });
      if (closed2) {
        rejectRace === null || rejectRace === void 0 ? void 0 : rejectRace(closedError !== null && closedError !== void 0 ? closedError : new ConnectError("sentinel completed early", Code.Internal));
      }
      return race;
    }
  };
  function cleanup() {
    if (signal) {
      signal.removeEventListener("abort", onSignalAbort);
    }
    onErrorListeners = [];
    rejectRace = void 0;
  }
  function onSignalAbort() {
    sentinel.error(getAbortSignalReason(this));
  }
  if (signal) {
    signal.addEventListener("abort", onSignalAbort);
    if (signal.aborted) {
      sentinel.error(getAbortSignalReason(signal));
    }
  }
  return sentinel;
}

// node_modules/@connectrpc/connect-node/dist/esm/node-transport-options.js
function validateNodeTransportOptions(options) {
  var _a, _b, _c, _d;
  let httpClient;
  if (options.httpVersion == "2") {
    let sessionManager;
    if (options.sessionManager) {
      sessionManager = options.sessionManager;
    } else {
      sessionManager = new Http2SessionManager(options.baseUrl, {
        pingIntervalMs: options.pingIntervalMs,
        pingIdleConnection: options.pingIdleConnection,
        pingTimeoutMs: options.pingTimeoutMs,
        idleConnectionTimeoutMs: options.idleConnectionTimeoutMs
      }, options.nodeOptions);
    }
    httpClient = createNodeHttpClient({
      httpVersion: "2",
      sessionProvider: () => sessionManager
    });
  } else {
    httpClient = createNodeHttpClient({
      httpVersion: "1.1",
      nodeOptions: options.nodeOptions
    });
  }
  return Object.assign(Object.assign(Object.assign({}, options), { httpClient, useBinaryFormat: (_a = options.useBinaryFormat) !== null && _a !== void 0 ? _a : true, interceptors: (_b = options.interceptors) !== null && _b !== void 0 ? _b : [], sendCompression: (_c = options.sendCompression) !== null && _c !== void 0 ? _c : null, acceptCompression: (_d = options.acceptCompression) !== null && _d !== void 0 ? _d : [
    compressionGzip,
    compressionBrotli
  ] }), validateReadWriteMaxBytes(options.readMaxBytes, options.writeMaxBytes, options.compressMinBytes));
}

// node_modules/@connectrpc/connect-node/dist/esm/grpc-transport.js
function createGrpcTransport(options) {
  return createTransport(validateNodeTransportOptions(Object.assign(Object.assign({}, options), { httpVersion: "2" })));
}

// src/client.ts
var REVIEWER_HEADER = "x-factmemory-reviewer";
function createFactMemoryClient(options) {
  const baseUrl = normalizeUrl(options.url);
  const sessionManager = new Http2SessionManager(baseUrl);
  const transport = createGrpcTransport({
    baseUrl,
    sessionManager,
    interceptors: [
      ...options.token ? [bearer(options.token)] : [],
      ...options.reviewer ? [header(REVIEWER_HEADER, options.reviewer)] : []
    ],
    ...options.timeoutMs !== void 0 ? { defaultTimeoutMs: options.timeoutMs } : {}
  });
  const client = createClient(FactMemoryService, transport);
  return Object.assign(client, { close: () => sessionManager.abort() });
}
function normalizeUrl(url) {
  const trimmed = url.trim().replace(/\/+$/, "");
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
}
function bearer(token) {
  return header("authorization", `Bearer ${token}`);
}
function header(name, value) {
  return (next) => (request3) => {
    request3.header.set(name, value);
    return next(request3);
  };
}

// src/settings.ts
var MODEL_MODES = ["service", "agent", "auto"];
var PREFETCH_MODES = ["answered", "all", "off"];
var AGENT_MODEL_TYPES = ["OBJECT_SMALL", "TEXT_SMALL"];
var DEFAULT_URL = "http://127.0.0.1:50051";
var DEFAULT_TIMEOUT_MS = 3e3;
var DEFAULT_EVALUATE_TIMEOUT_MS = 6e4;
var DEFAULT_EVALUATE_EVERY = 1;
var DEFAULT_EVALUATE_QUIET_MS = 6e4;
var DEFAULT_MODEL = "auto";
var DEFAULT_PREFETCH = "answered";
function readSettings(runtime) {
  const problems = [];
  return {
    url: text(runtime, "FACT_MEMORY_URL") ?? DEFAULT_URL,
    token: text(runtime, "FACT_MEMORY_TOKEN"),
    timeoutMs: positiveInt(runtime, "FACT_MEMORY_TIMEOUT_MS") ?? DEFAULT_TIMEOUT_MS,
    evaluateTimeoutMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_TIMEOUT_MS") ?? DEFAULT_EVALUATE_TIMEOUT_MS,
    evaluateEvery: positiveInt(runtime, "FACT_MEMORY_EVALUATE_EVERY") ?? DEFAULT_EVALUATE_EVERY,
    evaluateQuietMs: positiveInt(runtime, "FACT_MEMORY_EVALUATE_QUIET_MS") ?? DEFAULT_EVALUATE_QUIET_MS,
    model: oneOf(runtime, "FACT_MEMORY_MODEL", MODEL_MODES, problems, "lower") ?? DEFAULT_MODEL,
    agentModelType: oneOf(runtime, "FACT_MEMORY_AGENT_MODEL_TYPE", AGENT_MODEL_TYPES, problems, "upper"),
    prefetch: oneOf(runtime, "FACT_MEMORY_PREFETCH", PREFETCH_MODES, problems, "lower") ?? DEFAULT_PREFETCH,
    keepBootstrapMemory: flag(runtime, "FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY", problems) ?? false,
    problems
  };
}
function oneOf(runtime, key, allowed, problems, letterCase) {
  const raw = text(runtime, key);
  if (raw === void 0) return void 0;
  const value = letterCase === "lower" ? raw.toLowerCase() : raw.toUpperCase();
  const found = allowed.find((option) => option === value);
  if (found === void 0)
    problems.push(`${key}=${JSON.stringify(raw)} is not one of ${allowed.join(", ")}: ignored`);
  return found;
}
function flag(runtime, key, problems) {
  const value = runtime.getSetting(key);
  if (typeof value === "boolean") return value;
  const raw = text(runtime, key)?.toLowerCase();
  if (raw === void 0) return void 0;
  if (["true", "1", "yes"].includes(raw)) return true;
  if (["false", "0", "no"].includes(raw)) return false;
  problems.push(`${key}=${JSON.stringify(raw)} is not true or false: ignored`);
  return void 0;
}
function text(runtime, key) {
  const value = runtime.getSetting(key);
  if (value === null || value === void 0 || typeof value === "boolean") return void 0;
  const trimmed = String(value).trim();
  return trimmed === "" ? void 0 : trimmed;
}
function positiveInt(runtime, key) {
  const raw = text(runtime, key);
  if (raw === void 0) return void 0;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : void 0;
}

// src/context.ts
var LOG_SOURCE = "plugin:factmemory";
var contexts = /* @__PURE__ */ new WeakMap();
function contextFor(runtime) {
  let context = contexts.get(runtime);
  if (!context) {
    const settings = readSettings(runtime);
    const client = createFactMemoryClient({
      url: settings.url,
      ...settings.token !== void 0 ? { token: settings.token } : {},
      timeoutMs: settings.timeoutMs
    });
    context = {
      settings,
      client,
      outage: new OutageLog(runtime.logger, settings.url, settings.token !== void 0),
      limits: learnedLimits(runtime.logger, client, settings.url),
      mode: settings.model
    };
    contexts.set(runtime, context);
  }
  return context;
}
function learnedLimits(logger, client, url) {
  return new LearnedLimits({
    ask: () => client.getLimits({}),
    onOlderService: () => logger.info(
      { src: LOG_SOURCE, url },
      "FactMemory: the service is older than GetLimits; requests are cut to its default limits"
    ),
    onFailure: (error2) => logger.debug(
      { src: LOG_SOURCE, url, error: describeError(error2) },
      "FactMemory: asking the service for its limits failed; its default limits serve until the next ask"
    )
  });
}
function closeContext(runtime) {
  contexts.get(runtime)?.client.close();
  contexts.delete(runtime);
}
var OUTAGE_CODES = /* @__PURE__ */ new Set([Code.Unavailable, Code.DeadlineExceeded, Code.Canceled, Code.Aborted]);
function refusalAdvice(error2, tokenSet) {
  const err = ConnectError.from(error2);
  const set = "set FACT_MEMORY_TOKEN to the service's FACTMEMORY_AUTH_TOKEN";
  if (err.code === Code.Unauthenticated) {
    return tokenSet ? `the service refuses FACT_MEMORY_TOKEN (not its token): ${set}` : `the service requires a token and FACT_MEMORY_TOKEN is not set: ${set}`;
  }
  if (err.code === Code.ResourceExhausted && /too many failed attempts/.test(err.rawMessage)) {
    const wait = /retry in (\d+) s/.exec(err.rawMessage);
    const howLong = wait ? `for ${wait[1]} s` : "for up to FACTMEMORY_AUTH_FAILURE_WINDOW_S";
    return `the service refuses every call from this address ${howLong} after too many wrong tokens, the right token too (${set})`;
  }
  return void 0;
}
var OutageLog = class {
  #down = false;
  #refused = false;
  #logger;
  #url;
  #tokenSet;
  constructor(logger, url, tokenSet = false) {
    this.#logger = logger;
    this.#url = url;
    this.#tokenSet = tokenSet;
  }
  get down() {
    return this.#down;
  }
  failed(operation, error2) {
    const err = ConnectError.from(error2);
    const details = {
      src: LOG_SOURCE,
      operation,
      url: this.#url,
      code: Code[err.code],
      error: err.rawMessage
    };
    const advice = refusalAdvice(err, this.#tokenSet);
    if (advice !== void 0) {
      if (this.#refused) {
        this.#logger.debug(details, "FactMemory still refuses this agent");
        return;
      }
      this.#refused = true;
      this.#logger.warn(
        details,
        `FactMemory refuses this agent: ${advice}; turns go on without long-term facts`
      );
      return;
    }
    if (!OUTAGE_CODES.has(err.code)) {
      this.#logger.warn(details, `FactMemory ${operation} failed`);
      return;
    }
    if (this.#down) {
      this.#logger.debug(details, "FactMemory service still unreachable");
      return;
    }
    this.#down = true;
    this.#logger.warn(details, "FactMemory service unreachable; turns go on without long-term facts");
  }
  succeeded() {
    this.#refused = false;
    if (!this.#down) return;
    this.#down = false;
    this.#logger.info({ src: LOG_SOURCE, url: this.#url }, "FactMemory service reachable again");
  }
};
function describeError(error2) {
  if (error2 instanceof ConnectError) return `${Code[error2.code]}: ${error2.rawMessage}`;
  return error2 instanceof Error ? error2.message : String(error2);
}

// src/agent-model.ts
var TicketRefused = class extends Error {
  refusal;
  forgotten;
  constructor(refusal) {
    super(`CompleteEvaluation refused the ticket: ${Code[refusal.code]}: ${refusal.rawMessage}`);
    this.name = "TicketRefused";
    this.refusal = refusal;
    this.forgotten = refusal.code === Code.FailedPrecondition && /forgotten/i.test(refusal.rawMessage);
  }
};
function isRefusedTicket(error2) {
  return error2.code === Code.FailedPrecondition || error2.code === Code.NotFound || error2.code === Code.Aborted;
}
async function evaluateWithAgentModel(client, request3, ask2, timeoutMs) {
  const { agentId, entityId } = request3.value;
  const prepared = await client.prepareEvaluation({ request: request3 }, { timeoutMs });
  if (prepared.ticket === "") return prepared.results;
  const reply2 = await ask2({
    prompt: prepared.prompt,
    jsonSchema: prepared.jsonSchema,
    schemaName: prepared.schemaName
  });
  try {
    const completed = await client.completeEvaluation(
      { agentId, entityId, ticket: prepared.ticket, reply: reply2 },
      { timeoutMs }
    );
    return completed.results;
  } catch (error2) {
    const refusal = ConnectError.from(error2);
    if (!isRefusedTicket(refusal)) throw error2;
    const refused = new TicketRefused(refusal);
    if (refused.forgotten) throw refused;
    const again = await client.prepareEvaluation({ request: request3 }, { timeoutMs });
    if (again.ticket === "") return again.results;
    throw refused;
  }
}
function promptText(prompt) {
  return prompt.map((message) => message.content).join("\n\n");
}
function withSchema(prompt, jsonSchema) {
  return `${prompt}

Answer with the JSON object only. Its JSON schema:
${jsonSchema}`;
}
function agentModelType(runtime, setting) {
  if (setting !== void 0) return setting;
  return runtime.getModel("OBJECT_SMALL") ? "OBJECT_SMALL" : "TEXT_SMALL";
}
function askRuntimeModel(runtime, setting) {
  return async (question) => {
    const prompt = promptText(question.prompt);
    if (agentModelType(runtime, setting) === "OBJECT_SMALL") {
      const object = await runtime.useModel("OBJECT_SMALL", {
        prompt,
        schema: JSON.parse(question.jsonSchema),
        temperature: 0
      });
      return typeof object === "string" ? object : JSON.stringify(object);
    }
    const text2 = await runtime.useModel("TEXT_SMALL", {
      prompt: withSchema(prompt, question.jsonSchema),
      temperature: 0
    });
    return typeof text2 === "string" ? text2 : JSON.stringify(text2);
  };
}

// src/model-mode.ts
function isNoServiceModel(error2) {
  const err = ConnectError.from(error2);
  return err.code === Code.FailedPrecondition && /no LLM (is )?configured/i.test(err.rawMessage);
}
var TurnDropped = class extends Error {
  constructor(message) {
    super(message);
    this.name = "TurnDropped";
  }
};
function modeAfterFailure(mode, error2) {
  return mode === "auto" && isNoServiceModel(error2) ? "agent" : mode;
}
async function evaluateOne(runtime, request3) {
  const plugin = contextFor(runtime);
  const timeoutMs = plugin.settings.evaluateTimeoutMs;
  const viaAgent = async () => {
    const results = await evaluateWithAgentModel(
      plugin.client,
      { case: "single", value: request3 },
      askRuntimeModel(runtime, plugin.settings.agentModelType),
      timeoutMs
    );
    const [result] = results;
    if (!result) throw new Error("the service returned no result for the message");
    return result;
  };
  const viaService = () => plugin.client.evaluate(request3, { timeoutMs });
  return withMode(runtime, plugin, refusable(runtime, viaAgent, viaService, dropped), viaService);
}
function dropped(reason) {
  throw new TurnDropped(reason);
}
async function evaluateMany(runtime, request3) {
  const plugin = contextFor(runtime);
  const timeoutMs = plugin.settings.evaluateTimeoutMs;
  const viaAgent = async () => {
    const results = await evaluateWithAgentModel(
      plugin.client,
      { case: "batch", value: request3 },
      askRuntimeModel(runtime, plugin.settings.agentModelType),
      timeoutMs
    );
    return create(EvaluateBatchResponseSchema, { results });
  };
  const viaService = () => plugin.client.evaluateBatch(request3, { timeoutMs });
  const emptyResults = () => create(EvaluateBatchResponseSchema, {
    results: request3.messages.map(() => create(EvaluateResponseSchema))
  });
  return withMode(runtime, plugin, refusable(runtime, viaAgent, viaService, emptyResults), viaService);
}
function refusable(runtime, viaAgent, viaService, drop) {
  return async () => {
    try {
      return await viaAgent();
    } catch (error2) {
      if (!(error2 instanceof TicketRefused)) throw error2;
      const why = `${error2.message}; a second call of the agent's model in one turn is not allowed`;
      if (!error2.forgotten) {
        try {
          const result = await viaService();
          runtime.logger.warn(
            { src: LOG_SOURCE },
            `FactMemory: ${why}: the service's model evaluated the turn`
          );
          return result;
        } catch (fallback) {
          if (!isNoServiceModel(fallback)) throw fallback;
        }
      }
      const reason = error2.forgotten ? `${error2.message}: the person was forgotten meanwhile, so the turn is dropped (not learned)` : `${why}, and the service has no model: the turn is dropped (not learned)`;
      runtime.logger.warn({ src: LOG_SOURCE }, `FactMemory: ${reason}`);
      return drop(reason);
    }
  };
}
async function withMode(runtime, plugin, viaAgent, viaService) {
  if (plugin.mode === "agent") return viaAgent();
  try {
    return await viaService();
  } catch (error2) {
    const next = modeAfterFailure(plugin.mode, error2);
    if (next === plugin.mode) throw error2;
    plugin.mode = next;
    runtime.logger.info(
      { src: LOG_SOURCE },
      "FactMemory: the service has no model of its own; facts are extracted by the agent's model from now on (FACT_MEMORY_MODEL=auto)"
    );
    return viaAgent();
  }
}

// src/per-runtime.ts
function perRuntime(make) {
  const values = /* @__PURE__ */ new WeakMap();
  return (runtime) => {
    let value = values.get(runtime);
    if (value === void 0) {
      value = make(runtime);
      values.set(runtime, value);
    }
    return value;
  };
}
function cacheStore(runtime, key) {
  return {
    load: () => runtime.getCache(key),
    save: async (value) => {
      await runtime.setCache(key, value);
    }
  };
}

// src/kept.ts
var KeptPromises = class {
  constructor(ttlMs, max) {
    this.ttlMs = ttlMs;
    this.max = max;
  }
  #entries = /* @__PURE__ */ new Map();
  /** The promise kept under `key`, unless it is older than `ttlMs`. */
  get(key) {
    const entry = this.#entries.get(key);
    return entry && Date.now() - entry.at < this.ttlMs ? entry.value : void 0;
  }
  /** Keeps `value` under `key` and returns it. */
  set(key, value, keep = () => true) {
    const now = Date.now();
    for (const [old, entry2] of this.#entries) {
      if (this.#entries.size < this.max && now - entry2.at < this.ttlMs) break;
      this.#entries.delete(old);
    }
    const entry = { at: now, value };
    this.#entries.set(key, entry);
    const forget2 = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    value.then((result) => {
      if (!keep(result)) forget2();
    }, forget2);
    return value;
  }
};

// src/rooms.ts
var ROOM_TTL_MS = 6e4;
var ROOMS_KEPT = 512;
var roomsOf = perRuntime(() => new KeptPromises(ROOM_TTL_MS, ROOMS_KEPT));
function roomOf(runtime, roomId) {
  const rooms = roomsOf(runtime);
  return rooms.get(roomId) ?? rooms.set(roomId, runtime.getRoom(roomId), (room) => room !== null);
}

// src/unsaid.ts
var MAX_UNSAID = 500;
var unsaidKey = (runtime) => `factmemory:unsaid:${runtime.agentId}`;
async function takeBack(runtime, ids) {
  const fresh = [...ids].filter((id) => id !== "" && !/^(reviewer|import|chat):/.test(id));
  if (fresh.length === 0) return;
  const kept = await runtime.getCache(unsaidKey(runtime)) ?? [];
  const merged2 = [.../* @__PURE__ */ new Set([...kept.filter((id) => !fresh.includes(id)), ...fresh])].slice(-MAX_UNSAID);
  await runtime.setCache(unsaidKey(runtime), merged2);
}
async function withoutUnsaid(runtime, messages) {
  let unsaid;
  try {
    unsaid = new Set(await runtime.getCache(unsaidKey(runtime)) ?? []);
  } catch {
    return messages;
  }
  return unsaid.size === 0 ? messages : messages.filter((m) => !unsaid.has(m.id ?? ""));
}

// src/request.ts
var RECENT_MESSAGE_COUNT = 12;
var PROVIDE_TOTAL_LIMIT = 12;
function rolesIn(world, entityId, limits = DEFAULT_LIMITS) {
  if (!world) return [];
  const metadata = world.metadata ?? {};
  const roles = /* @__PURE__ */ new Set();
  const role = metadata.roles?.[entityId];
  if (typeof role === "string" && role !== "") roles.add(fit(role, limits.maxNameChars));
  if (metadata.ownership?.ownerId === entityId) roles.add("OWNER");
  return [...roles].slice(0, limits.maxSpeakerRoles);
}
function worldName(world, limits = DEFAULT_LIMITS) {
  if (!world?.id || typeof world.name !== "string") return "";
  return fit(world.name.replace(/\s+/g, " ").trim(), limits.maxNameChars);
}
function buildEvaluateRequest(input) {
  const limits = input.limits ?? DEFAULT_LIMITS;
  const names = nameBook(input.agentId, input.agentName, input.conversation.entities);
  const chat = (memories) => memories.slice(-limits.maxRecentMessages).map((memory) => toChatMessage(memory, names, limits));
  return create(EvaluateRequestSchema, {
    agentId: input.agentId,
    entityId: input.message.entityId,
    roomId: input.message.roomId,
    message: toChatMessage(input.message, names, limits),
    recentMessages: chat(input.conversation.recent),
    items: [...input.items],
    roomEntities: roomEntities(input.conversation.entities, [input.message.entityId, input.agentId], limits),
    agentResponses: chat(input.responses),
    didRespond: input.didRespond,
    worldId: input.conversation.world?.id ?? "",
    speakerRoles: rolesIn(input.conversation.world, input.message.entityId, limits),
    worldName: worldName(input.conversation.world, limits)
  });
}
function buildProvideRequest(input) {
  const limits = input.limits ?? DEFAULT_LIMITS;
  const names = nameBook(input.agentId, input.agentName, input.conversation.entities);
  const recent = withCurrent(input.conversation.recent, input.message).slice(-limits.maxRecentMessages);
  return create(ProvideRequestSchema, {
    agentId: input.agentId,
    entityId: input.message.entityId,
    roomId: input.message.roomId,
    recentMessages: recent.map((memory) => toChatMessage(memory, names, limits)),
    subjectName: fit(senderName(input.message, names) ?? "", limits.maxNameChars),
    worldId: input.conversation.worldId ?? input.conversation.world?.id ?? "",
    totalLimit: Math.min(PROVIDE_TOTAL_LIMIT, 2 * limits.maxProvideLimit)
  });
}
async function loadConversation(runtime, roomId, onError, worldRow = true) {
  if (!hasDatabase(runtime)) return { recent: [], entities: [] };
  const [recent, entities, world] = await Promise.all([
    runtime.getMemories({ tableName: "messages", roomId, count: RECENT_MESSAGE_COUNT }).then((memories) => withoutUnsaid(runtime, memories)).then(oldestFirst).catch((error2) => (onError("getMemories", error2), [])),
    runtime.getEntitiesForRoom(roomId).catch((error2) => (onError("getEntitiesForRoom", error2), [])),
    loadWorld(runtime, roomId, worldRow).catch((error2) => (onError("getWorld", error2), void 0))
  ]);
  if (!world) return { recent, entities };
  return world.row ? { recent, entities, world: world.row, worldId: world.id } : { recent, entities, worldId: world.id };
}
async function loadWorld(runtime, roomId, row) {
  const room = await roomOf(runtime, roomId);
  if (!room?.worldId) return void 0;
  if (!row) return { id: room.worldId };
  const world = await runtime.getWorld(room.worldId);
  return world ? { id: room.worldId, row: world } : void 0;
}
function hasDatabase(runtime) {
  return !("adapter" in runtime) || runtime.adapter != null;
}
function oldestFirst(memories) {
  const reversed = [...memories].reverse();
  if (reversed.every((memory) => typeof memory.createdAt === "number")) {
    reversed.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  }
  return reversed;
}
function toChatMessage(memory, names, limits = DEFAULT_LIMITS) {
  return create(ChatMessageSchema, {
    id: memory.id ?? "",
    entityId: memory.entityId,
    name: fit(senderName(memory, names) ?? "", limits.maxNameChars),
    text: fit(memory.content.text ?? "", limits.maxTextChars),
    ...typeof memory.createdAt === "number" ? { createdAt: toTimestamp(memory.createdAt) } : {}
  });
}
function toTimestamp(epochMs) {
  return timestampFromMs(Math.trunc(epochMs));
}
function nameBook(agentId, agentName, entities) {
  const names = /* @__PURE__ */ new Map();
  for (const entity of entities) {
    const first = entity.names.find((name) => name.trim() !== "");
    if (entity.id && first) names.set(entity.id, first);
  }
  if (agentName) names.set(agentId, agentName);
  return names;
}
function senderName(memory, names) {
  const known = names.get(memory.entityId);
  if (known) return known;
  const fromMetadata = memory.metadata?.entityName;
  return typeof fromMetadata === "string" && fromMetadata !== "" ? fromMetadata : void 0;
}
function roomEntities(entities, first, limits) {
  const rank = (entity) => entity.id && first.includes(entity.id) ? 0 : 1;
  return [...entities].sort((a, b) => rank(a) - rank(b)).flatMap((entity) => toRoomEntity(entity, limits.maxNameChars)).slice(0, limits.maxRoomEntities);
}
function toRoomEntity(entity, maxNameChars) {
  if (!entity.id) return [];
  const names = entity.names.filter((name) => name.trim() !== "").map((name) => fit(name, maxNameChars));
  return [create(RoomEntitySchema, { id: entity.id, names })];
}
function fit(text2, max) {
  const clean = text2.includes("\0") ? text2.replaceAll("\0", "") : text2;
  return clean.length <= max ? clean : clean.slice(0, max);
}
function withCurrent(recent, message) {
  const others = recent.filter((memory) => memory.id === void 0 || memory.id !== message.id);
  return [...others, message];
}

// src/relationships.ts
var UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
async function mirrorRelationships(runtime, relationships2, onError) {
  const outcome = { created: 0, updated: 0, failed: 0 };
  if (relationships2.length === 0 || !hasDatabase(runtime)) return outcome;
  for (const relationship of relationships2) {
    try {
      const result = await mirrorOne(runtime, relationship);
      if (result !== "skipped") outcome[result] += 1;
    } catch (error2) {
      outcome.failed += 1;
      onError(error2);
    }
  }
  return outcome;
}
async function mirrorOne(runtime, relationship) {
  const sourceEntityId = asUuid(relationship.sourceEntityId);
  const targetEntityId = asUuid(relationship.targetEntityId);
  if (!sourceEntityId || !targetEntityId) return "skipped";
  const existing = await runtime.getRelationship({ sourceEntityId, targetEntityId });
  if (!existing) {
    await runtime.createRelationship({
      sourceEntityId,
      targetEntityId,
      tags: [...relationship.tags],
      metadata: mergedMetadata(void 0, relationship)
    });
    return "created";
  }
  await runtime.updateRelationship(merged(existing, relationship));
  return "updated";
}
function merged(existing, learned) {
  return {
    ...existing,
    tags: [.../* @__PURE__ */ new Set([...existing.tags ?? [], ...learned.tags])],
    metadata: mergedMetadata(existing.metadata, learned)
  };
}
function mergedMetadata(existing, learned) {
  const previous = typeof existing?.["interactions"] === "number" ? existing["interactions"] : 0;
  return {
    ...existing,
    // elizaOS's RELATIONSHIPS provider ranks by metadata.interactions.
    interactions: Math.max(previous, learned.interactionCount),
    factMemory: { tags: [...learned.tags], interactionCount: learned.interactionCount }
  };
}
function asUuid(value) {
  return UUID_PATTERN.test(value) ? value : void 0;
}

// src/batching.ts
function pendingKey(agentId) {
  return `factmemory:pending:${agentId}`;
}
var batcherFor = perRuntime((runtime) => {
  const plugin = contextFor(runtime);
  const warn = (what, error2) => runtime.logger.warn({ src: LOG_SOURCE, error: describeError(error2) }, `FactMemory: ${what} failed`);
  return new Batcher({
    every: plugin.settings.evaluateEvery,
    limits: () => plugin.limits.get(),
    quietMs: plugin.settings.evaluateQuietMs,
    store: cacheStore(runtime, pendingKey(runtime.agentId)),
    send: async (request3) => {
      try {
        const response = await evaluateMany(runtime, request3);
        plugin.outage.succeeded();
        if (request3.items.includes(2 /* RELATIONSHIPS */)) {
          const relationships2 = response.results.flatMap((result) => result.relationships);
          await mirrorRelationships(
            runtime,
            relationships2,
            (error2) => warn("mirroring a relationship", error2)
          );
        }
        return response;
      } catch (error2) {
        plugin.outage.failed("EvaluateBatch", error2);
        throw error2;
      }
    },
    onError: (what, error2) => {
      if (what !== "EvaluateBatch") warn(what, error2);
    }
  });
});
function restorePending(runtime) {
  return runtime.initPromise.then(() => batcherFor(runtime).restore()).catch(
    (error2) => runtime.logger.warn(
      { src: LOG_SOURCE, error: describeError(error2) },
      "FactMemory: sending the pending messages failed"
    )
  );
}
var FactMemoryBatchService = class _FactMemoryBatchService {
  static serviceType = "factmemory-batch";
  capabilityDescription = "Sends the messages FactMemory batches (FACT_MEMORY_EVALUATE_EVERY) when the agent stops";
  #runtime;
  constructor(runtime) {
    this.#runtime = runtime;
  }
  static async start(runtime) {
    return new _FactMemoryBatchService(runtime);
  }
  static async stop(_runtime) {
  }
  async stop() {
    const batcher = batcherFor(this.#runtime);
    await batcher.flushAll();
    batcher.close();
  }
};
var batchService = FactMemoryBatchService;

// src/deletions.ts
var FORGET_DELAYS_MS = [1e3, 5e3, 2e4];
var STORE_VERSION2 = 1;
var ForgetQueue = class {
  #options;
  #pending = [];
  #saved = Promise.resolve();
  constructor(options) {
    this.#options = options;
  }
  get waiting() {
    return this.#pending.length;
  }
  /** Keeps the request, sends it (retrying transient failures); undefined when it is still waiting. */
  async forget(request3) {
    this.#pending.push(request3);
    await this.#save();
    return this.#send(request3);
  }
  /** Takes up what an earlier process left unsent and sends it. */
  async restore() {
    let stored;
    try {
      stored = await this.#options.store.load();
    } catch (error2) {
      this.#options.onError("loading pending deletions", error2);
      return;
    }
    const requests = parseStored2(stored);
    this.#pending.push(...requests);
    for (const request3 of requests) await this.#send(request3);
  }
  async #send(request3) {
    try {
      const response = await withRetries(
        () => this.#options.send(request3),
        this.#options.delaysMs,
        this.#options.wait
      );
      const index = this.#pending.indexOf(request3);
      if (index >= 0) this.#pending.splice(index, 1);
      await this.#save();
      return response;
    } catch (error2) {
      this.#options.onError("ForgetMessages", error2);
      return void 0;
    }
  }
  #save() {
    const snapshot = {
      version: STORE_VERSION2,
      requests: this.#pending.map((request3) => toJson(ForgetMessagesRequestSchema, request3))
    };
    this.#saved = this.#saved.then(() => this.#options.store.save(snapshot)).catch((error2) => this.#options.onError("saving pending deletions", error2));
    return this.#saved;
  }
};
function parseStored2(stored) {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return [];
  if (stored["version"] !== STORE_VERSION2 || !Array.isArray(stored["requests"])) return [];
  const out = [];
  for (const json of stored["requests"]) {
    try {
      out.push(fromJson(ForgetMessagesRequestSchema, json));
    } catch {
    }
  }
  return out;
}
function forgetKey(agentId) {
  return `factmemory:forget:${agentId}`;
}
var forgetQueueFor = perRuntime((runtime) => {
  const plugin = contextFor(runtime);
  return new ForgetQueue({
    delaysMs: FORGET_DELAYS_MS,
    store: cacheStore(runtime, forgetKey(runtime.agentId)),
    send: async (request3) => {
      try {
        const response = await plugin.client.forgetMessages(request3);
        plugin.outage.succeeded();
        return response;
      } catch (error2) {
        plugin.outage.failed("ForgetMessages", error2);
        throw error2;
      }
    },
    onError: (what, error2) => runtime.logger.warn(
      { src: LOG_SOURCE, error: describeError(error2) },
      what === "ForgetMessages" ? "FactMemory: ForgetMessages failed; it is kept and sent again when the agent next starts" : `FactMemory: ${what} failed`
    )
  });
});
function forgetMessageRequest(agentId, message) {
  if (typeof message.id !== "string" || message.entityId === agentId) return void 0;
  return create(ForgetMessagesRequestSchema, {
    agentId,
    entityId: message.entityId,
    messageIds: [message.id]
  });
}
function forgetRoomRequest(agentId, roomId) {
  return create(ForgetMessagesRequestSchema, { agentId, roomId });
}
async function onMessageDeleted(payload) {
  const { runtime, message } = payload;
  const request3 = forgetMessageRequest(runtime.agentId, message);
  if (!request3) return;
  const ids = new Set(request3.messageIds);
  await dropWaiting(runtime, (waiting) => ids.has(waiting.message?.id ?? ""));
  await forgetQueueFor(runtime).forget(request3);
}
async function onChannelCleared(payload) {
  const { runtime, roomId } = payload;
  if (typeof roomId !== "string" || roomId.length === 0) return;
  await dropWaiting(runtime, (waiting) => waiting.roomId === roomId);
  await forgetQueueFor(runtime).forget(forgetRoomRequest(runtime.agentId, roomId));
}
async function dropWaiting(runtime, deleted) {
  try {
    await batcherFor(runtime).drop(deleted);
  } catch (error2) {
    runtime.logger.warn(
      { src: LOG_SOURCE, error: describeError(error2) },
      "FactMemory: dropping a deleted message failed"
    );
  }
}
function restoreDeletions(runtime) {
  return runtime.initPromise.then(() => forgetQueueFor(runtime).restore()).catch(
    (error2) => runtime.logger.warn(
      { src: LOG_SOURCE, error: describeError(error2) },
      "FactMemory: sending pending deletions failed"
    )
  );
}
var deletionEvents = {
  MESSAGE_DELETED: [onMessageDeleted],
  CHANNEL_CLEARED: [onChannelCleared]
};

// src/join.ts
var Join = class {
  #options;
  #pending = /* @__PURE__ */ new Map();
  constructor(options) {
    this.#options = options;
  }
  /** Number of keys waiting or in flight (for tests and diagnostics). */
  get size() {
    return this.#pending.size;
  }
  /**
   * Adds `member` to the request for `key` and resolves with that request's result.
   * A member arriving while its key's request is in flight shares that result without being part of it:
   * check `members` to tell.
   */
  arrive(key, member, context) {
    const pending = this.#pending.get(key) ?? this.#open(key, context);
    if (!pending.sent) {
      pending.members.add(member);
      pending.tick ??= setImmediate(() => this.#settle(key, pending));
    }
    return pending.result;
  }
  #open(key, context) {
    let resolve;
    let reject;
    const result = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const pending = {
      context,
      members: /* @__PURE__ */ new Set(),
      result,
      resolve,
      reject,
      tick: void 0,
      grace: void 0,
      sent: false
    };
    this.#pending.set(key, pending);
    return pending;
  }
  #settle(key, pending) {
    pending.tick = void 0;
    if (pending.sent) return;
    if (this.#complete(pending)) {
      this.#send(key, pending);
    } else {
      pending.grace ??= setTimeout(() => this.#send(key, pending), this.#options.graceMs);
    }
  }
  #complete(pending) {
    for (const member of this.#options.expected(pending.context, pending.members)) {
      if (!pending.members.has(member)) return false;
    }
    return true;
  }
  #send(key, pending) {
    if (pending.sent) return;
    pending.sent = true;
    clearTimeout(pending.grace);
    const members = new Set(pending.members);
    Promise.resolve().then(() => this.#options.send(pending.context, [...members])).then(
      (value) => pending.resolve({ value, members }),
      (error2) => pending.reject(error2)
    ).finally(() => this.#pending.delete(key));
  }
};

// src/memory-words.ts
var SAFETY_CATEGORIES = /* @__PURE__ */ new Set(["health"]);
var NO_WORDS = /* @__PURE__ */ new Set([
  "no",
  "n",
  "nope",
  "nah",
  "cancel",
  "dont",
  "don't",
  "keep",
  "stop",
  "never",
  "neither",
  "none",
  "nothing",
  "wait"
]);
var YES_WORDS = /* @__PURE__ */ new Set([
  "yes",
  "y",
  "yeah",
  "yep",
  "yup",
  "sure",
  "ok",
  "okay",
  "confirm",
  "confirmed",
  "absolutely"
]);
var YES_PHRASES = ["do it", "go ahead", "forget me", "please do", "that's right", "i'm sure", "i am sure"];
var ALL_WORDS = /* @__PURE__ */ new Set(["all", "both", "everything", "every"]);
var ORDINALS = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6 };
function readAnswer(text2, count) {
  const lower = text2.toLowerCase().replace(/[’]/g, "'");
  const words = lower.match(/[a-z0-9']+/g) ?? [];
  if (words.some((w) => NO_WORDS.has(w))) return { kind: "no" };
  const numbers = /* @__PURE__ */ new Set();
  for (const word of words) {
    const n = /^\d+$/.test(word) ? Number(word) : word === "last" ? count : ORDINALS[word] ?? 0;
    if (n >= 1 && n <= count) numbers.add(n);
  }
  if (numbers.size > 0) return { kind: "pick", numbers: [...numbers].sort((a, b) => a - b) };
  if (count > 0 && words.some((w) => ALL_WORDS.has(w))) return { kind: "all" };
  if (words.some((w) => YES_WORDS.has(w)) || YES_PHRASES.some((p) => lower.includes(p)))
    return { kind: "yes" };
  return { kind: "other" };
}
var DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC"
});
function day(fact, which) {
  const at = fact[which];
  return at ? DAY.format(timestampDate(at)) : "";
}
function origin(fact) {
  const evidence = fact.evidenceMessageIds;
  const when = day(fact, "createdAt");
  let said;
  if (evidence.length > 0 && evidence.every((e) => e.startsWith("reviewer:")))
    said = `added by hand on ${when}`;
  else if (evidence.length > 0 && evidence.every((e) => e.startsWith("import:")))
    said = `imported on ${when}`;
  else said = `you told me on ${when}`;
  const again = day(fact, "lastConfirmedAt");
  if (again && again !== when && !said.startsWith("added")) said += `, and again on ${again}`;
  const before = fact.previousClaims.at(-1);
  if (before) said += `; it used to say "${before}"`;
  return said;
}
function quoted(facts3) {
  const claims = facts3.map((f) => `"${f.claim}"`);
  return claims.length <= 1 ? claims[0] ?? "" : `${claims.slice(0, -1).join(", ")} and ${claims.at(-1)}`;
}
var say = {
  recall(facts3, aboutTopic) {
    if (facts3.length === 0) return "I don't remember anything about you yet.";
    const intro = aboutTopic ? "Here is what I remember about that:" : "Here is what I remember about you:";
    return [intro, ...facts3.map((f) => `- ${f.claim} (${origin(f)})`)].join("\n");
  },
  nothingToForget(otherPerson) {
    const whose = otherPerson ? ` I only change what I remember about you, never what I remember about ${otherPerson}.` : "";
    return `I don't have anything like that stored about you, so I forgot nothing.${whose}`;
  },
  forgot(facts3) {
    return `Done: I forgot ${quoted(facts3)}.`;
  },
  confirmSafety(fact) {
    return `"${fact.claim}" is about your health, and forgetting it could matter for your safety. Should I forget it? Answer yes or no.`;
  },
  whichOne(facts3) {
    const lines = facts3.map(
      (f, i) => `${i + 1}. ${f.claim}${SAFETY_CATEGORIES.has(f.category) ? ` (${f.category})` : ""}`
    );
    return [
      "I remember a few things that could be it:",
      ...lines,
      `Which should I forget? Answer with a number, "all" or "none". I haven't forgotten anything yet.`
    ].join("\n");
  },
  keptIt: "OK, I kept it: I forgot nothing.",
  unclear: "I couldn't tell which one you meant, so I forgot nothing. Ask me again whenever you like.",
  nothingAsked: "There's nothing waiting for your answer, so I changed nothing.",
  confirmForgetMe(facts3, more) {
    const count = `${facts3}${more ? " or more" : ""} fact${facts3 === 1 && !more ? "" : "s"}`;
    return `That erases everything I remember about you: ${count}, and what I learned about your relationships and accounts. It can't be undone. To confirm, answer "yes, forget me" in your next message; anything else keeps it.`;
  },
  forgotYou(facts3, relationships2, identities2) {
    return `Done: I erased everything I remembered about you (${facts3} facts, ${relationships2} relationships, ${identities2} accounts). I'll start from scratch.`;
  },
  keptYou: "OK, I kept everything I remember about you.",
  corrected(before, after) {
    return `Thanks, I fixed it: "${before}" is now "${after}".`;
  },
  noted(facts3) {
    return `Noted: ${quoted(facts3)}.`;
  },
  notCorrected: "I couldn't tell which of the things I remember about you that corrects, so nothing changed. You can ask me what I remember about you.",
  heldForReview(claim) {
    return `"${claim}" is something I know about this community, not about you, and only the people trusted to teach it can change it. I passed your request on for review; until then it stays as it is.`;
  },
  forgotShared(claim) {
    return `Done: I forgot "${claim}" (something I knew about this community).`;
  },
  lessSure(claim) {
    return `Noted: I'm less sure now that "${claim}" (something I know about this community).`;
  },
  unreachable: "I couldn't reach my memory just now, so nothing changed. Please try again in a moment."
};

// src/memory-actions.ts
var RECALL_MEMORY = "RECALL_MEMORY";
var FORGET_FACT = "FORGET_FACT";
var CORRECT_FACT = "CORRECT_FACT";
var FORGET_ME = "FORGET_ME";
var ANSWER_MEMORY_QUESTION = "ANSWER_MEMORY_QUESTION";
var MEMORY_ACTIONS = [RECALL_MEMORY, FORGET_FACT, CORRECT_FACT, FORGET_ME, ANSWER_MEMORY_QUESTION];
var RECALL_LIMIT = 10;
var CHOICES = 5;
var COUNT_PAGE = 1e3;
var ANSWER_WINDOW = 30;
var normalized = (name) => name.toLowerCase().replace(/_/g, "");
var MEMORY_NAMES = new Set(MEMORY_ACTIONS.map(normalized));
function isMemoryRequest(responses) {
  return responses.some(
    (r) => (r.content?.actions ?? []).some((a) => MEMORY_NAMES.has(normalized(String(a))))
  );
}
var questionKey = (runtime, entityId) => `factmemory:question:${runtime.agentId}:${entityId}`;
async function ask(runtime, message, question) {
  const full = {
    ...question,
    roomId: message.roomId,
    askedIn: message.id ?? "",
    askedAt: message.createdAt ?? Date.now()
  };
  await runtime.setCache(questionKey(runtime, message.entityId), full);
}
async function openQuestion(runtime, message) {
  const question = await runtime.getCache(questionKey(runtime, message.entityId));
  if (!question || question.roomId !== message.roomId || question.askedIn === message.id) return void 0;
  const at = message.createdAt ?? Date.now();
  const recent = await runtime.getMemories({
    tableName: "messages",
    roomId: message.roomId,
    count: ANSWER_WINDOW
  });
  const between = recent.some(
    (m) => m.entityId === message.entityId && m.id !== message.id && m.id !== question.askedIn && (m.createdAt ?? 0) > question.askedAt && (m.createdAt ?? 0) < at
  );
  return between ? void 0 : question;
}
async function questionHint(runtime, message) {
  if (message.entityId === runtime.agentId) return "";
  const question = await openQuestion(runtime, message).catch(() => void 0);
  if (!question) return "";
  const what = question.kind === "forget_me" ? "whether to erase everything remembered about them" : question.confirmOnly ? "whether to forget a health fact" : "which of the listed facts to forget";
  return `# A question waiting for this answer
The sender was just asked ${what}. If this message answers it (yes, no, a number, "all", "none"), use the action ${ANSWER_MEMORY_QUESTION}.`;
}
function chatOf(message, confirmed = false) {
  return create(ChatRequestSchema, { messageId: message.id ?? "", confirmed });
}
function scope(runtime, message) {
  return { agentId: runtime.agentId, entityId: message.entityId };
}
async function reply(callback, name, text2, data = {}) {
  await callback?.({ text: text2, actions: [name] });
  return { success: true, text: text2, values: { factMemoryAnswer: text2 }, data: { actionName: name, ...data } };
}
function guarded(name, body) {
  return async (runtime, message, _state, _options, callback, responses) => {
    try {
      const result = await body(runtime, message, callback, responses ?? []);
      contextFor(runtime).outage.succeeded();
      return result;
    } catch (error2) {
      contextFor(runtime).outage.failed(name, error2);
      runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error2) }, `FactMemory: ${name} failed`);
      const result = await reply(callback, name, say.unreachable);
      return { ...result, success: false, error: describeError(error2) };
    }
  };
}
var facts = (found) => found.flatMap((s) => s.fact ? [s.fact] : []);
async function find(runtime, message, text2, limit) {
  const limits = await contextFor(runtime).limits.get();
  return contextFor(runtime).client.findFacts({
    ...scope(runtime, message),
    text: fit(text2, limits.maxTextChars),
    limit: Math.max(1, Math.min(limit, 2 * limits.maxProvideLimit))
  });
}
async function recall(runtime, message, callback) {
  const found = await find(runtime, message, message.content.text ?? "", RECALL_LIMIT);
  const topical = found.matches.length > 0;
  const shown = facts(topical ? found.matches : found.near);
  return reply(callback, RECALL_MEMORY, say.recall(shown, topical), {
    facts: shown.map((f) => toJson(FactSchema, f))
  });
}
async function deleteFacts(runtime, message, chosen, confirmed) {
  const deleted = [];
  for (const fact of chosen) {
    try {
      await contextFor(runtime).client.deleteFact({
        ...scope(runtime, message),
        factId: fact.id,
        chat: chatOf(message, confirmed)
      });
      deleted.push(fact);
    } catch (error2) {
      if (ConnectError.from(error2).code !== Code.NotFound) throw error2;
    }
  }
  await takeBack(runtime, [...deleted.flatMap((f) => f.evidenceMessageIds), message.id ?? ""]);
  return deleted;
}
async function otherPersonNamed(runtime, message) {
  const text2 = (message.content.text ?? "").toLowerCase();
  const { entities } = await loadConversation(runtime, message.roomId, () => void 0);
  for (const entity of entities) {
    if (entity.id === message.entityId || entity.id === runtime.agentId) continue;
    const name = (entity.names ?? []).find(
      (n) => n.length > 1 && new RegExp(`\\b${escape(n.toLowerCase())}\\b`).test(text2)
    );
    if (name) return name;
  }
  return void 0;
}
function escape(text2) {
  return text2.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
async function forget(runtime, message, callback, responses) {
  const found = await find(runtime, message, message.content.text ?? "", CHOICES + 5);
  const matches = facts(found.matches);
  const [only] = matches;
  if (!only) {
    const shared = await sharedRequest(runtime, message, responses);
    if (shared) return reply(callback, FORGET_FACT, shared);
    return reply(callback, FORGET_FACT, say.nothingToForget(await otherPersonNamed(runtime, message)));
  }
  if (matches.length > 1) {
    const offered = matches.slice(0, CHOICES);
    await ask(runtime, message, {
      kind: "forget",
      facts: offered.map((f) => toJson(FactSchema, f)),
      confirmOnly: false
    });
    return reply(callback, FORGET_FACT, say.whichOne(offered), { asked: true });
  }
  if (SAFETY_CATEGORIES.has(only.category)) {
    await ask(runtime, message, { kind: "forget", facts: [toJson(FactSchema, only)], confirmOnly: true });
    return reply(callback, FORGET_FACT, say.confirmSafety(only), { asked: true });
  }
  const deleted = await deleteFacts(runtime, message, [only], false);
  return reply(callback, FORGET_FACT, deleted.length ? say.forgot(deleted) : say.nothingToForget(void 0), {
    deleted: deleted.map((f) => f.id)
  });
}
async function forgetMe(runtime, message, callback) {
  const listed = await contextFor(runtime).client.listFacts({
    ...scope(runtime, message),
    pageSize: COUNT_PAGE
  });
  await ask(runtime, message, { kind: "forget_me", facts: [], confirmOnly: true });
  return reply(callback, FORGET_ME, say.confirmForgetMe(listed.facts.length, listed.nextPageToken !== ""), {
    asked: true
  });
}
async function answer(runtime, message, callback) {
  const question = await openQuestion(runtime, message);
  await runtime.deleteCache(questionKey(runtime, message.entityId));
  if (!question) return reply(callback, ANSWER_MEMORY_QUESTION, say.nothingAsked);
  const text2 = message.content.text ?? "";
  if (question.kind === "forget_me") {
    if (readAnswer(text2, 0).kind !== "yes") return reply(callback, ANSWER_MEMORY_QUESTION, say.keptYou);
    const room = await runtime.getMemories({
      tableName: "messages",
      roomId: message.roomId,
      count: ANSWER_WINDOW
    });
    await takeBack(
      runtime,
      room.filter((m) => m.entityId === message.entityId).map((m) => m.id ?? "")
    );
    const done = await contextFor(runtime).client.forgetEntity({
      ...scope(runtime, message),
      chat: chatOf(message, true)
    });
    return reply(
      callback,
      ANSWER_MEMORY_QUESTION,
      say.forgotYou(done.factsDeleted, done.relationshipsDeleted, done.identitiesDeleted),
      { erased: true }
    );
  }
  const offered = question.facts.map((f) => fromJson(FactSchema, f));
  const chosen = await chosenFacts(runtime, message, offered, question.confirmOnly);
  if (chosen === void 0) return reply(callback, ANSWER_MEMORY_QUESTION, say.unclear);
  if (chosen.length === 0) return reply(callback, ANSWER_MEMORY_QUESTION, say.keptIt);
  const deleted = await deleteFacts(runtime, message, chosen, true);
  return reply(callback, ANSWER_MEMORY_QUESTION, say.forgot(deleted), { deleted: deleted.map((f) => f.id) });
}
async function chosenFacts(runtime, message, offered, confirmOnly) {
  const text2 = message.content.text ?? "";
  const said = readAnswer(text2, confirmOnly ? 0 : offered.length);
  if (confirmOnly) return said.kind === "yes" ? [...offered] : [];
  if (said.kind === "no") return [];
  if (said.kind === "all") return [...offered];
  if (said.kind === "pick")
    return said.numbers.map((n) => offered[n - 1]).filter((f) => f !== void 0);
  const ids = new Set(offered.map((f) => f.id));
  const named = facts((await find(runtime, message, text2, RECALL_LIMIT)).matches).filter(
    (f) => ids.has(f.id)
  );
  return named.length > 0 ? named : void 0;
}
async function extract(runtime, message, responses, conversation) {
  const request3 = buildEvaluateRequest({
    agentId: runtime.agentId,
    agentName: runtime.character?.name ?? "",
    message,
    conversation,
    limits: await contextFor(runtime).limits.get(),
    responses,
    items: [1 /* FACTS */, 2 /* RELATIONSHIPS */, 3 /* IDENTITIES */],
    didRespond: true
  });
  return evaluateOne(runtime, request3);
}
var onShared = (op, person) => op.handle.startsWith("S") && op.fact?.entityId !== person;
function sharedOutcome(ops) {
  for (const op of ops) {
    const claim = op.fact?.claim ?? "";
    if (op.rejected || !claim) continue;
    if (op.candidateId) return say.heldForReview(claim);
    if (op.deleted) return say.forgotShared(claim);
    if (op.op === 4 /* DECAY */) return say.lessSure(claim);
  }
  return void 0;
}
async function sharedRequest(runtime, message, responses) {
  const conversation = await loadConversation(runtime, message.roomId, () => void 0);
  if (!conversation.world) return void 0;
  const result = await extract(runtime, message, responses, conversation);
  return sharedOutcome(result.ops.filter((op) => onShared(op, message.entityId)));
}
async function correct(runtime, message, callback, responses) {
  const plugin = contextFor(runtime);
  const conversation = await loadConversation(runtime, message.roomId, () => void 0);
  const result = await extract(runtime, message, responses, conversation);
  const own = result.ops.filter((op) => !onShared(op, message.entityId));
  const correction = own.find((op) => op.op === 5 /* CONTRADICT */ && op.candidateId && op.fact);
  if (correction) {
    const settled = await plugin.client.resolveCandidate({
      ...scope(runtime, message),
      candidateId: correction.candidateId,
      resolution: 1 /* ACCEPT */,
      chat: chatOf(message)
    });
    const after = settled.fact?.claim ?? "";
    return reply(callback, CORRECT_FACT, say.corrected(correction.fact?.claim ?? "", after), {
      factId: settled.fact?.id ?? ""
    });
  }
  const shared = sharedOutcome(result.ops.filter((op) => onShared(op, message.entityId)));
  if (shared) return reply(callback, CORRECT_FACT, shared);
  const added = own.flatMap(
    (op) => !op.rejected && (op.op === 1 /* ADD_DURABLE */ || op.op === 2 /* ADD_CURRENT */) && op.fact ? [op.fact] : []
  );
  if (added.length > 0) return reply(callback, CORRECT_FACT, say.noted(added));
  return reply(callback, CORRECT_FACT, say.notCorrected);
}
var fromPerson = async (runtime, message) => message.entityId !== runtime.agentId && typeof message.content?.text === "string" && message.content.text.trim() !== "";
function example(user, agent, action) {
  return [
    { name: "{{name1}}", content: { text: user } },
    { name: "{{agentName}}", content: { text: agent, actions: [action] } }
  ];
}
var recallMemoryAction = {
  name: RECALL_MEMORY,
  similes: ["WHAT_DO_YOU_KNOW_ABOUT_ME", "SHOW_MY_MEMORY", "RECALL_FACTS"],
  description: 'The sender asks what you know or remember about THEM ("what do you know about me?", "what do you remember about my job?"). Replies with their stored facts and where each came from. Use it alone, without REPLY.',
  validate: fromPerson,
  handler: guarded(RECALL_MEMORY, (runtime, message, callback) => recall(runtime, message, callback)),
  examples: [example("What do you know about me?", "Here is what I remember about you: ...", RECALL_MEMORY)]
};
var forgetFactAction = {
  name: FORGET_FACT,
  similes: ["FORGET_THAT", "DELETE_MEMORY", "REMOVE_FACT"],
  description: `The sender asks you to forget or delete ONE thing you remember about them ("forget that I'm vegetarian", "forget what I said about my ex"). Deletes it, or asks which one when several match. Use it alone, without REPLY.`,
  validate: fromPerson,
  handler: guarded(
    FORGET_FACT,
    (runtime, message, callback, responses) => forget(runtime, message, callback, responses)
  ),
  examples: [example("Please forget that I'm vegetarian.", 'Done: I forgot "is vegetarian".', FORGET_FACT)]
};
var correctFactAction = {
  name: CORRECT_FACT,
  similes: ["CORRECT_MEMORY", "FIX_FACT", "UPDATE_MEMORY"],
  description: `The sender says something you remember about them is wrong and gives the right version ("that's wrong, I moved to Porto in March"). Corrects the stored fact. Use it alone, without REPLY.`,
  validate: fromPerson,
  handler: guarded(
    CORRECT_FACT,
    (runtime, message, callback, responses) => correct(runtime, message, callback, responses)
  ),
  examples: [
    example(
      "That's wrong, I don't live in Lisbon any more, I moved to Porto in March.",
      'Thanks, I fixed it: "lives in Lisbon" is now "lives in Porto".',
      CORRECT_FACT
    )
  ]
};
var forgetMeAction = {
  name: FORGET_ME,
  similes: ["FORGET_EVERYTHING_ABOUT_ME", "ERASE_MY_DATA", "DELETE_ALL_MY_MEMORY"],
  description: 'The sender asks you to forget EVERYTHING about them ("forget me", "delete all you know about me"). Asks them to confirm in their next message first. Use it alone, without REPLY.',
  validate: fromPerson,
  handler: guarded(FORGET_ME, (runtime, message, callback) => forgetMe(runtime, message, callback)),
  examples: [
    example(
      "Forget everything about me.",
      'That erases everything I remember about you ... answer "yes, forget me"',
      FORGET_ME
    )
  ]
};
var answerMemoryQuestionAction = {
  name: ANSWER_MEMORY_QUESTION,
  similes: ["CONFIRM_FORGET", "CHOOSE_FACT_TO_FORGET"],
  description: 'The sender answers the question you just asked about their memory (which fact to forget, or whether to really forget it or everything about them): yes, no, a number, "all" or "none". Use it alone, without REPLY.',
  validate: async (runtime, message) => await fromPerson(runtime, message) && await openQuestion(runtime, message).catch(() => void 0) !== void 0,
  handler: guarded(
    ANSWER_MEMORY_QUESTION,
    (runtime, message, callback) => answer(runtime, message, callback)
  ),
  examples: [
    example(
      "Yes, forget me.",
      "Done: I erased everything I remembered about you ...",
      ANSWER_MEMORY_QUESTION
    )
  ]
};
var memoryActions = [
  recallMemoryAction,
  forgetFactAction,
  correctFactAction,
  forgetMeAction,
  answerMemoryQuestionAction
];

// src/evaluators.ts
var JOIN_GRACE_MS = 100;
var SPECS = [
  {
    name: "FACT_MEMORY_FACTS",
    item: 1 /* FACTS */,
    alwaysRun: true,
    description: "Learns durable facts (who someone is) and current facts (their state right now) about the sender.",
    similes: ["LEARN_FACTS", "REMEMBER_FACTS"],
    examples: [
      example2(
        "The sender says where they live and how they feel today.",
        "I moved to Berlin last year, and I'm pretty anxious this morning.",
        "Durable fact 'lives in Berlin'; current fact 'anxious this morning'."
      )
    ]
  },
  {
    name: "FACT_MEMORY_RELATIONSHIPS",
    item: 2 /* RELATIONSHIPS */,
    alwaysRun: true,
    description: "Records how the people in the room relate to each other and to the agent.",
    similes: ["LEARN_RELATIONSHIPS"],
    examples: [
      example2(
        "The sender talks about another person in the room.",
        "Sam is my sister, we run the bakery together.",
        "Relationship sender -> Sam tagged family, colleague."
      )
    ]
  },
  {
    name: "FACT_MEMORY_IDENTITIES",
    item: 3 /* IDENTITIES */,
    alwaysRun: true,
    description: "Links the sender to their handles on other platforms when they mention them.",
    similes: ["LEARN_IDENTITIES"],
    examples: [
      example2(
        "The sender gives an account on another platform.",
        "You can find me on GitHub as @dana-dev.",
        "Identity github:@dana-dev for the sender."
      )
    ]
  },
  {
    name: "FACT_MEMORY_SUCCESS",
    item: 4 /* SUCCESS */,
    alwaysRun: false,
    description: "Judges whether the agent's reply on this turn did what the sender asked.",
    similes: ["TASK_SUCCESS"],
    examples: [
      example2(
        "The sender asked a question and the agent answered it.",
        "What's the capital of Portugal?",
        "Completed: the agent answered Lisbon."
      )
    ]
  }
];
var ALWAYS_RUN = new Set(SPECS.filter((spec) => spec.alwaysRun).map((spec) => spec.item));
function isEvaluable(runtime, message) {
  return typeof message.id === "string" && message.entityId !== runtime.agentId && typeof message.content?.text === "string" && message.content.text.trim() !== "";
}
function expectedItems(registeredNames, arrived, responses) {
  const responded = inferDidRespond(arrived, responses);
  return SPECS.filter((spec) => registeredNames.has(spec.name) && (spec.alwaysRun || responded)).map(
    (spec) => spec.item
  );
}
function inferDidRespond(arrived, responses) {
  return responses.length > 0 || [...arrived].some((item) => !ALWAYS_RUN.has(item));
}
var joinFor = perRuntime(
  () => new Join({
    graceMs: JOIN_GRACE_MS,
    expected: (context, arrived) => expectedItems(new Set(context.runtime.evaluators.map((e) => e.name)), arrived, context.responses),
    send: sendEvaluate
  })
);
async function sendEvaluate(context, items) {
  const plugin = contextFor(context.runtime);
  if (plugin.settings.evaluateEvery > 1) {
    return batcherFor(context.runtime).add(await buildRequest(context, items));
  }
  try {
    const response = await evaluate(context, items);
    plugin.outage.succeeded();
    return response;
  } catch (error2) {
    if (!(error2 instanceof TurnDropped)) plugin.outage.failed("Evaluate", error2);
    throw error2;
  }
}
async function buildRequest(context, items) {
  const { runtime, message, responses } = context;
  const conversation = await loadConversation(
    runtime,
    message.roomId,
    (what, error2) => runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error2) }, `FactMemory: ${what} failed`)
  );
  return buildEvaluateRequest({
    agentId: runtime.agentId,
    agentName: runtime.character?.name ?? "",
    message,
    conversation,
    limits: await contextFor(runtime).limits.get(),
    responses,
    items: [...items].sort((a, b) => a - b),
    didRespond: inferDidRespond(new Set(items), responses)
  });
}
async function evaluate(context, items) {
  const { runtime } = context;
  const request3 = await buildRequest(context, items);
  const response = await evaluateOne(runtime, request3);
  if (items.includes(2 /* RELATIONSHIPS */)) {
    await mirrorRelationships(
      runtime,
      response.relationships,
      (error2) => runtime.logger.warn(
        { src: LOG_SOURCE, error: describeError(error2) },
        "FactMemory: mirroring a relationship failed"
      )
    );
  }
  return response;
}
function makeEvaluator(spec) {
  return {
    name: spec.name,
    description: spec.description,
    similes: spec.similes,
    examples: spec.examples,
    alwaysRun: spec.alwaysRun,
    validate: async (runtime, message) => isEvaluable(runtime, message),
    handler: async (runtime, message, _state, _options, _callback, responses) => handle(spec, runtime, message, responses ?? [])
  };
}
async function handle(spec, runtime, message, responses) {
  try {
    if (!isEvaluable(runtime, message)) return { success: false, error: "message cannot be evaluated" };
    if (isMemoryRequest(responses)) {
      return { success: true, text: "FactMemory: a request about the memory itself is not learned from" };
    }
    const key = `${runtime.agentId}:${message.id}`;
    const joined = await joinFor(runtime).arrive(key, spec.item, { runtime, message, responses });
    if (!joined.members.has(spec.item)) {
      return { success: false, error: `${spec.name} arrived after this message's Evaluate call was sent` };
    }
    return { success: true, ...resultFor(spec.item, joined.value) };
  } catch (error2) {
    return { success: false, error: describeError(error2) };
  }
}
function resultFor(item, outcome) {
  if ("queued" in outcome) {
    return {
      text: `FactMemory: queued for a batched evaluation (${outcome.waiting} waiting)`,
      data: { queued: true, waiting: outcome.waiting }
    };
  }
  const response = outcome;
  const replayed = response.replayed;
  switch (item) {
    case 1 /* FACTS */: {
      const applied = response.ops.filter((op) => !op.rejected).length;
      return {
        text: `FactMemory applied ${applied} of ${response.ops.length} fact operations`,
        data: {
          ops: response.ops.map((op) => toJson(AppliedOpSchema, op)),
          usage: response.usage ? toJson(UsageSchema, response.usage) : null,
          replayed
        }
      };
    }
    case 2 /* RELATIONSHIPS */:
      return {
        text: `FactMemory saw ${response.relationships.length} relationships`,
        data: { relationships: response.relationships.map((r) => toJson(RelationshipSchema, r)), replayed }
      };
    case 3 /* IDENTITIES */:
      return {
        text: `FactMemory saw ${response.identities.length} identities`,
        data: { identities: response.identities.map((i) => toJson(IdentitySchema, i)), replayed }
      };
    default:
      return {
        text: response.success?.completed ? "FactMemory: task completed" : "FactMemory: task not completed",
        data: { success: response.success ? toJson(SuccessVerdictSchema, response.success) : null, replayed }
      };
  }
}
function example2(prompt, text2, outcome) {
  return { prompt, messages: [{ name: "{{name1}}", content: { text: text2 } }], outcome };
}
var [facts2, relationships, identities, success] = SPECS.map(makeEvaluator);
var factMemoryEvaluator = facts2;
var relationshipEvaluator = relationships;
var identityEvaluator = identities;
var successEvaluator = success;
var factMemoryEvaluators = [facts2, relationships, identities, success];

// src/provider.ts
var PROVIDER_NAME = "FACT_MEMORY";
var MEMO_TTL_MS = 6e4;
var MEMO_MAX_ENTRIES = 256;
var EMPTY_RESULT = Object.freeze({
  text: "",
  values: { factMemory: "" },
  data: { durable: [], current: [], shared: [] }
});
function toProviderResult(response) {
  return {
    text: response.text,
    values: { factMemory: response.text },
    data: {
      durable: response.durable.map((fact) => toJson(ScoredFactSchema, fact)),
      current: response.current.map((fact) => toJson(ScoredFactSchema, fact)),
      // The world's shared facts relevant to the turn; the text holds them as "What I know about this community:".
      shared: response.shared.map((fact) => toJson(ScoredFactSchema, fact))
    }
  };
}
var callsOf = perRuntime(
  () => new KeptPromises(MEMO_TTL_MS, MEMO_MAX_ENTRIES)
);
var factMemoryProvider = {
  name: PROVIDER_NAME,
  description: "Long-term facts about the person speaking (who they are, what is going on for them now) and about the community",
  // Not dynamic: composeState includes it on every turn without the planner having to ask for it.
  dynamic: false,
  get: async (runtime, message) => provide(runtime, message)
};
async function provide(runtime, message) {
  if (message.entityId === runtime.agentId) return EMPTY_RESULT;
  const key = message.id;
  if (!key) return turnFacts(runtime, message);
  const calls = callsOf(runtime);
  return calls.get(key) ?? calls.set(key, turnFacts(runtime, message));
}
function prefetchFacts(runtime, message) {
  const key = message.id;
  if (!key || message.entityId === runtime.agentId) return false;
  const calls = callsOf(runtime);
  if (calls.get(key)) return false;
  calls.set(key, turnFacts(runtime, message), (facts3) => facts3 !== EMPTY_RESULT);
  return true;
}
function turnFacts(runtime, message) {
  return fetchFacts(runtime, message).then((facts3) => withQuestion(runtime, message, facts3)).catch((error2) => {
    runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error2) }, "FactMemory provider failed");
    return EMPTY_RESULT;
  });
}
async function fetchFacts(runtime, message) {
  const plugin = contextFor(runtime);
  const deadline = Date.now() + plugin.settings.timeoutMs;
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new ConnectError("FactMemory provider deadline exceeded", Code.DeadlineExceeded)),
    plugin.settings.timeoutMs
  );
  try {
    const response = await Promise.race([
      requestFacts(runtime, message, deadline, abort.signal),
      rejectOnAbort(abort.signal)
    ]);
    plugin.outage.succeeded();
    return toProviderResult(response);
  } catch (error2) {
    plugin.outage.failed("Provide", error2);
    return EMPTY_RESULT;
  } finally {
    clearTimeout(timer);
  }
}
async function requestFacts(runtime, message, deadline, signal) {
  const [conversation, limits] = await Promise.all([
    // Provide needs the world's id only, which the room holds: the world row is not read.
    loadConversation(
      runtime,
      message.roomId,
      (what, error2) => runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error2) }, `FactMemory: ${what} failed`),
      false
    ),
    contextFor(runtime).limits.get()
  ]);
  const request3 = buildProvideRequest({
    agentId: runtime.agentId,
    agentName: runtime.character?.name ?? "",
    message,
    conversation,
    limits
  });
  const timeoutMs = Math.max(1, deadline - Date.now());
  return contextFor(runtime).client.provide(request3, { timeoutMs, signal });
}
async function withQuestion(runtime, message, result) {
  const hint = await questionHint(runtime, message);
  if (!hint) return result;
  const text2 = [result.text, hint].filter(Boolean).join("\n\n");
  return { ...result, text: text2, values: { factMemory: text2 } };
}
function rejectOnAbort(signal) {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

// src/prefetch.ts
async function prefetch(runtime, message) {
  try {
    if (!message?.id || message.entityId === runtime.agentId || !message.content?.text?.trim()) return false;
    const mode = contextFor(runtime).settings.prefetch;
    if (!await wanted(mode, runtime, message)) return false;
    return prefetchFacts(runtime, message);
  } catch (error2) {
    runtime.logger.debug({ src: LOG_SOURCE, error: describeError(error2) }, "FactMemory prefetch failed");
    return false;
  }
}
async function wanted(mode, runtime, message) {
  if (mode !== "answered") return mode === "all";
  const service = runtime.messageService;
  if (!service) return false;
  const room = await roomOf(runtime, message.roomId);
  if (!room) return false;
  const decision = service.shouldRespond(runtime, message, room, message.content.mentionContext);
  return decision.shouldRespond && decision.skipEvaluation;
}
var prefetchEvents = {
  // The message service queues a stored message's embedding right after storing it, before composing any state.
  EMBEDDING_GENERATION_REQUESTED: [
    async ({ runtime, memory }) => {
      void prefetch(runtime, memory);
    }
  ],
  // Clients that announce a message before handing it to the message service.
  MESSAGE_RECEIVED: [
    async ({ runtime, message }) => {
      void prefetch(runtime, message);
    }
  ]
};

// src/register.ts
var REGISTER_DELAYS_MS = [1e3, 4e3, 15e3, 4e4];
async function registerAgentName(runtime, delaysMs = REGISTER_DELAYS_MS, wait = sleep) {
  const name = runtime.character?.name?.trim() ?? "";
  if (name === "") return false;
  try {
    await runtime.initPromise;
    const plugin = contextFor(runtime);
    await withRetries(() => plugin.client.registerAgent({ agentId: runtime.agentId, name }), delaysMs, wait);
    return true;
  } catch (error2) {
    if (refusalAdvice(error2, false) !== void 0) {
      contextFor(runtime).outage.failed("RegisterAgent", error2);
      return false;
    }
    runtime.logger.warn(
      { src: LOG_SOURCE, name, error: describeError(error2) },
      "FactMemory: registering the agent's name failed; the review page and CLI show its id instead"
    );
    return false;
  }
}

// src/supersede.ts
var SUPERSEDED_EVALUATORS = ["REFLECTION"];
var SUPERSEDED_PROVIDERS = ["FACTS"];
var superseding = /* @__PURE__ */ new WeakSet();
function supersedeBootstrapMemory(runtime) {
  if (superseding.has(runtime)) return;
  superseding.add(runtime);
  const dropped2 = /* @__PURE__ */ new Set();
  let logged = false;
  const note = (what) => {
    dropped2.add(what);
    if (logged) return;
    logged = true;
    queueMicrotask(
      () => runtime.logger.info(
        { src: LOG_SOURCE, superseded: [...dropped2] },
        "FactMemory supersedes plugin-bootstrap's REFLECTION evaluator and FACTS provider: one memory per agent (FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY=true keeps them)"
      )
    );
  };
  removeNamed(runtime.evaluators, SUPERSEDED_EVALUATORS, (name) => note(`evaluator ${name}`));
  removeNamed(runtime.providers, SUPERSEDED_PROVIDERS, (name) => note(`provider ${name}`));
  const registerEvaluator = runtime.registerEvaluator.bind(runtime);
  runtime.registerEvaluator = (evaluator) => {
    if (SUPERSEDED_EVALUATORS.includes(evaluator.name)) note(`evaluator ${evaluator.name}`);
    else registerEvaluator(evaluator);
  };
  const registerProvider = runtime.registerProvider.bind(runtime);
  runtime.registerProvider = (provider) => {
    if (SUPERSEDED_PROVIDERS.includes(provider.name)) note(`provider ${provider.name}`);
    else registerProvider(provider);
  };
}
function removeNamed(list, names, removed) {
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const item = list[i];
    if (names.includes(item.name)) {
      list.splice(i, 1);
      removed(item.name);
    }
  }
}

// src/index.ts
var factMemoryPlugin = {
  name: "factmemory",
  description: "Long-term memory about people: learns facts after each turn and puts them in the next prompt",
  evaluators: [factMemoryEvaluator, relationshipEvaluator, identityEvaluator, successEvaluator],
  // A person's requests about their own memory, chosen by the agent's response call (docs/elizaos.md).
  actions: [...memoryActions],
  providers: [factMemoryProvider],
  // Deletions reach the memory; a person's message starts its Provide before composeState asks for it.
  events: { ...deletionEvents, ...prefetchEvents },
  config: {
    FACT_MEMORY_URL: DEFAULT_URL,
    FACT_MEMORY_TOKEN: null,
    FACT_MEMORY_TIMEOUT_MS: DEFAULT_TIMEOUT_MS,
    FACT_MEMORY_EVALUATE_EVERY: DEFAULT_EVALUATE_EVERY,
    FACT_MEMORY_EVALUATE_QUIET_MS: DEFAULT_EVALUATE_QUIET_MS,
    FACT_MEMORY_MODEL: DEFAULT_MODEL,
    FACT_MEMORY_PREFETCH: DEFAULT_PREFETCH,
    FACT_MEMORY_KEEP_BOOTSTRAP_MEMORY: false
  },
  // Only reads settings and creates the (lazy) client: an agent must start even when the service is down.
  // In the background, once the runtime is up: messages an earlier run left waiting for their batch and
  // deletions it could not send are sent, and the character's name is registered.
  init: async (_config, runtime) => {
    const { settings } = contextFor(runtime);
    for (const problem of settings.problems)
      runtime.logger.warn({ src: LOG_SOURCE }, `FactMemory: ${problem}`);
    if (!settings.keepBootstrapMemory) supersedeBootstrapMemory(runtime);
    if (settings.evaluateEvery > 1) {
      void runtime.registerService(batchService).catch(
        (error2) => runtime.logger.warn(
          { src: LOG_SOURCE, error: describeError(error2) },
          "FactMemory: batch service failed"
        )
      );
    }
    void restorePending(runtime);
    void restoreDeletions(runtime);
    void registerAgentName(runtime);
    runtime.logger.info(
      { src: LOG_SOURCE, url: settings.url, evaluateEvery: settings.evaluateEvery, model: settings.model },
      "FactMemory plugin ready"
    );
  }
};
var index_default = factMemoryPlugin;
export {
  ANSWER_MEMORY_QUESTION,
  AddFactRequestSchema,
  AddFactResponseSchema,
  AgentSummarySchema,
  AppliedOpSchema,
  Batcher,
  CORRECT_FACT,
  CandidateSchema,
  CandidateSource,
  CandidateSourceSchema,
  CandidateStatus,
  CandidateStatusSchema,
  ChatMessageSchema,
  ChatRequestSchema,
  CompleteEvaluationRequestSchema,
  CompleteEvaluationResponseSchema,
  DEFAULT_LIMITS,
  Decision,
  DecisionSchema,
  DeleteFactRequestSchema,
  DeleteFactResponseSchema,
  DroppedCountsSchema,
  EntityKind,
  EntityKindSchema,
  EntitySummarySchema,
  EvaluateBatchRequestSchema,
  EvaluateBatchResponseSchema,
  EvaluateRequestSchema,
  EvaluateResponseSchema,
  ExportEntityRequestSchema,
  ExportEntityResponseSchema,
  FORGET_FACT,
  FORGET_ME,
  FactMemoryBatchService,
  FactMemoryService,
  FactSchema,
  FindFactsRequestSchema,
  FindFactsResponseSchema,
  ForgetEntityRequestSchema,
  ForgetEntityResponseSchema,
  ForgetMessagesRequestSchema,
  ForgetMessagesResponseSchema,
  ForgetQueue,
  GetFactRequestSchema,
  GetFactResponseSchema,
  GetLimitsRequestSchema,
  GetLimitsResponseSchema,
  HistoryAction,
  HistoryActionSchema,
  HistoryEntrySchema,
  IdentitySchema,
  Item,
  ItemSchema,
  Kind,
  KindSchema,
  LearnedLimits,
  ListAgentsRequestSchema,
  ListAgentsResponseSchema,
  ListCandidatesRequestSchema,
  ListCandidatesResponseSchema,
  ListEntitiesRequestSchema,
  ListEntitiesResponseSchema,
  ListFactsRequestSchema,
  ListFactsResponseSchema,
  MEMORY_ACTIONS,
  OpType,
  OpTypeSchema,
  PROVIDER_NAME,
  PrepareEvaluationRequestSchema,
  PrepareEvaluationResponseSchema,
  PromptMessageSchema,
  ProvideRequestSchema,
  ProvideResponseSchema,
  RECALL_MEMORY,
  REVIEWER_HEADER,
  RegisterAgentRequestSchema,
  RegisterAgentResponseSchema,
  RelationshipSchema,
  Resolution,
  ResolutionSchema,
  ResolveCandidateRequestSchema,
  ResolveCandidateResponseSchema,
  RoomEntitySchema,
  SAFETY_CATEGORIES,
  ScoredFactSchema,
  SuccessVerdictSchema,
  TicketRefused,
  TurnDropped,
  UpdateFactRequestSchema,
  UpdateFactResponseSchema,
  UsageSchema,
  VerificationStatus,
  VerificationStatusSchema,
  answerMemoryQuestionAction,
  batcherFor,
  closeContext,
  correctFactAction,
  createFactMemoryClient,
  index_default as default,
  deletionEvents,
  evaluateMany,
  evaluateOne,
  evaluateWithAgentModel,
  factMemoryEvaluator,
  factMemoryEvaluators,
  factMemoryPlugin,
  factMemoryProvider,
  file_factmemory_v1_factmemory,
  forgetFactAction,
  forgetKey,
  forgetMeAction,
  forgetMessageRequest,
  forgetRoomRequest,
  identityEvaluator,
  isMemoryRequest,
  isNoServiceModel,
  memoryActions,
  mergeBatch,
  modeAfterFailure,
  origin,
  pendingKey,
  prefetch,
  prefetchEvents,
  prefetchFacts,
  promptText,
  readAnswer,
  readSettings,
  recallMemoryAction,
  registerAgentName,
  relationshipEvaluator,
  say,
  successEvaluator,
  supersedeBootstrapMemory
};
