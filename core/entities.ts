import { GlobalSetting } from "./settings/global-setting.entity.ts";
import { UserSettings } from "./settings/user-settings.entity.ts";
import { UploadedFile } from "./uploads/uploaded-file.entity.ts";
import { User } from "./users/user.entity.ts";

/** Every entity the data source maps. */
export const entities = [GlobalSetting, UploadedFile, User, UserSettings];
