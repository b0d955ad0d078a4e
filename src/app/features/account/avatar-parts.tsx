import type { ChangeEvent } from 'react';
import Cropper from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { SubmitButton } from '../../components/forms/submit-button';
import type { Picture } from './use-avatar-editor';

// The avatar editor's parts: the crop area with its tools, the current photo, the upload's progress and
// the buttons that pick a picture.

/** Frames the picked picture: drag, pinch or the arrow keys; zoom; rotate in quarter turns. */
export function CropArea({ picture, disabled }: { picture: Picture; disabled: boolean }) {
  const { t } = useLingui();
  const { picked, crop, zoom, rotation, setCrop, setZoom, setRotation } = picture;
  if (!picked) return null;
  return (
    <>
      <div className="avatar-crop" data-testid="avatar-cropper">
        <Cropper
          image={picked.url}
          crop={crop}
          zoom={zoom}
          rotation={rotation}
          aspect={1}
          cropShape="round"
          showGrid={false}
          keyboardStep={10}
          maxZoom={4}
          disableAutomaticStylesInjection
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={picture.onCropComplete}
          mediaProps={{ alt: t`The picture you chose` }}
          cropperProps={{ 'aria-label': t`Crop area: drag or use the arrow keys to move the picture` }}
        />
      </div>
      <p className="muted avatar-hint">
        <Trans>Drag or pinch to frame your face. On a keyboard, focus the picture and use the arrow keys.</Trans>
      </p>
      <div className="avatar-tools">
        <label className="avatar-zoom">
          <span className="field__label">
            <Trans>Zoom</Trans>
          </span>
          <input type="range" min={1} max={4} step={0.05} value={zoom} onChange={(e) => setZoom(Number(e.target.value))} disabled={disabled} data-testid="avatar-zoom" />
        </label>
        <button type="button" className="btn btn--ghost avatar-rotate" onClick={() => setRotation((r) => (r + 270) % 360)} disabled={disabled} aria-label={t`Rotate left`} title={t`Rotate left`}>
          <span aria-hidden="true">↺</span>
        </button>
        <button
          type="button"
          className="btn btn--ghost avatar-rotate"
          onClick={() => setRotation((r) => (r + 90) % 360)}
          disabled={disabled}
          aria-label={t`Rotate right`}
          title={t`Rotate right`}
          data-testid="avatar-rotate"
        >
          <span aria-hidden="true">↻</span>
        </button>
      </div>
    </>
  );
}

/** Initials of a name ("Alex Tan" -> "AT"); an e-mail address gives its first letter, as the profile head shows. */
function initialsOf(name: string): string {
  const parts = name.includes('@') ? [name] : name.split(/\s+/).filter(Boolean);
  return parts
    .slice(0, 2)
    .map((part) => Array.from(part)[0]!.toUpperCase())
    .join('');
}

export function CurrentAvatar({ src, name }: { src?: string; name: string }) {
  const { t } = useLingui();
  return (
    <div className="avatar-current">
      {src ? (
        <img className="avatar-current__img" src={src} alt={t`Your current profile photo`} width={160} height={160} data-testid="avatar-current" />
      ) : (
        <span className="avatar-current__img avatar-current__img--none" aria-hidden="true">
          {initialsOf(name) || '?'}
        </span>
      )}
      <p className="muted">
        <Trans>Take a photo or choose a picture. You will frame a square of it before it is uploaded.</Trans>
      </p>
    </div>
  );
}

export function UploadProgress({ progress, onCancel }: { progress: number; onCancel: () => void }) {
  const { t } = useLingui();
  const pct = Math.round(progress * 100);
  return (
    <div className="avatar-progress" data-testid="avatar-progress">
      <div className="avatar-progress__label">
        <span>
          <Trans>Uploading…</Trans>
        </span>
        <span>{pct}%</span>
      </div>
      <div className="avatar-progress__track" role="progressbar" aria-label={t`Upload progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div className="avatar-progress__bar" style={{ width: `${pct}%` }} />
      </div>
      <button type="button" className="btn btn--ghost btn--block" onClick={onCancel} data-testid="avatar-cancel">
        <Trans>Cancel upload</Trans>
      </button>
    </div>
  );
}

/** "Use this photo" once a picture is framed, and the two ways to pick one: the camera or a file. */
export function AvatarActions({ picked, onUpload, onFile }: { picked: boolean; onUpload: () => void; onFile: (e: ChangeEvent<HTMLInputElement>) => void }) {
  return (
    <div className="avatar-actions">
      {picked && (
        <SubmitButton onClick={onUpload} testId="avatar-upload">
          <Trans>Use this photo</Trans>
        </SubmitButton>
      )}
      <div className="avatar-pick">
        <label className="btn btn--ghost avatar-pick__btn">
          <input className="sr-only" type="file" accept="image/*" capture="user" onChange={onFile} data-testid="avatar-camera" />
          <Trans>Take a photo</Trans>
        </label>
        <label className="btn btn--ghost avatar-pick__btn">
          <input className="sr-only" type="file" accept="image/jpeg,image/png,image/webp,image/*" onChange={onFile} data-testid="avatar-file" />
          {picked ? <Trans>Choose another</Trans> : <Trans>Choose a picture</Trans>}
        </label>
      </div>
    </div>
  );
}
