export type { ListedObject, ObjectStat, StorageDriver } from './driver.js';
export {
  IMAGE_TYPES,
  type ImageType,
  INCOMING_PREFIX,
  isImageType,
  isValidKey,
  MAX_OBJECT_BYTES,
  sniffImageType,
  UPLOAD_URL_TTL_SECONDS,
  UPLOADS_PREFIX,
} from './keys.js';
export {
  createLocalStorage,
  isLocalStorage,
  LOCAL_UPLOAD_PATH,
  type LocalStorage,
  type LocalStorageOptions,
  UploadTooLargeError,
} from './local.js';
export { createMemoryStorage, type MemoryStorage } from './memory.js';
export { createS3Storage, type S3StorageOptions, STREAM_PART_BYTES } from './s3.js';
export { loadOrCreateSecret, signUpload, verifyUpload } from './signing.js';
