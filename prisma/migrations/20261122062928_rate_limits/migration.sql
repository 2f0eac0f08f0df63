-- CreateTable
CREATE TABLE "quire_rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "quire_rate_limits_pkey" PRIMARY KEY ("key")
);
