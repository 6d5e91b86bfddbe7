// KMS: placeholder until its issue lands; replace this file.
import CDRM
